"""The README's Python client calls, run by test/client/python-client.spec.ts against a test archive.

Arguments: the archive's base URL, an API key it accepts, a game file, a player of that game.
Prints one JSON line (the game's id, media type and size) when every call answered as expected.
"""

import json
import sys
from pathlib import Path

from tabula_client import AuthenticatedClient
from tabula_client.api.games import download_game, search_games, upload_game
from tabula_client.models import GameDto, GamePageDto, UploadGameFilesBody
from tabula_client.types import File

base_url, api_key, path, player = sys.argv[1:5]
sgf = Path(path)
client = AuthenticatedClient(base_url=base_url, token=api_key, raise_on_unexpected_status=True)

with sgf.open("rb") as file:
    game = upload_game.sync(client=client, body=UploadGameFilesBody(file=File(payload=file, file_name=sgf.name)))
assert isinstance(game, GameDto), f"the upload answered {game!r}"
assert game.filename == sgf.name, game.filename
game_id = game.id

page = search_games.sync(client=client, player=player)
assert isinstance(page, GamePageDto), f"search answered {page!r}"
assert [found.id for found in page.items] == [game_id], [found.id for found in page.items]

raw = download_game.sync(game_id, client=client)
assert isinstance(raw, File), f"download answered {raw!r}"
downloaded = raw.payload.read()
assert downloaded == sgf.read_bytes(), f"{len(downloaded)} bytes came back for the {sgf.stat().st_size} of {sgf.name}"

print(json.dumps({"gameId": game_id, "mediaType": game.media_type, "bytes": len(downloaded)}))
