"""The Python client calls of docs/api.md, run by test/client/python-client.spec.ts against a test archive.

Arguments: the archive's base URL, an API key it accepts, a game file, a player of that game, and a
second game file sent as a raw body. Prints one JSON line (the game's id, media type and size, the
SHA-256 of its export as SGF, the raw upload's id, media type and first game) when every call answered as expected.
"""

import hashlib
import json
import sys
from pathlib import Path

from tabula_client import AuthenticatedClient
from tabula_client.api.games import download_game, export_game, search_games, upload_game
from tabula_client.api.uploads import upload_file
from tabula_client.models import GamePageDto, UploadDto, UploadedGameDto, UploadGameFilesBody
from tabula_client.types import File

base_url, api_key, path, player, raw_path = sys.argv[1:6]
sgf = Path(path)
client = AuthenticatedClient(base_url=base_url, token=api_key, raise_on_unexpected_status=True)

with sgf.open("rb") as file:
    game = upload_game.sync(client=client, body=UploadGameFilesBody(file=File(payload=file, file_name=sgf.name)))
assert isinstance(game, UploadedGameDto), f"the upload answered {game!r}"
assert game.filename == sgf.name, game.filename
assert game.same_as == [], game.same_as
game_id = game.id

page = search_games.sync(client=client, player=player)
assert isinstance(page, GamePageDto), f"search answered {page!r}"
assert [found.id for found in page.items] == [game_id], [found.id for found in page.items]

raw = download_game.sync(game_id, client=client)
assert isinstance(raw, File), f"download answered {raw!r}"
downloaded = raw.payload.read()
assert downloaded == sgf.read_bytes(), f"{len(downloaded)} bytes came back for the {sgf.stat().st_size} of {sgf.name}"

# The game written in another format of its family: a file, read as bytes whatever its type.
exported = export_game.sync(game_id, client=client, format_="SGF/FF4-Go")
assert isinstance(exported, File), f"export answered {exported!r}"
exported_sha256 = hashlib.sha256(exported.payload.read()).hexdigest()

# A file sent as the request body itself, not as a form.
second = Path(raw_path)
with second.open("rb") as file:
    upload = upload_file.sync(client=client, body=File(payload=file), filename=second.name)
assert isinstance(upload, UploadDto), f"the raw upload answered {upload!r}"

print(json.dumps({
    "gameId": game_id,
    "mediaType": game.media_type,
    "bytes": len(downloaded),
    "exportSha256": exported_sha256,
    "rawUploadId": upload.id,
    "rawUploadMediaType": upload.media_type,
    "rawUploadGameId": upload.games[0].game_id,
}))
