/**
 * The other files of the game the archive holds (GET /games/{id}/relatives): the same game in
 * another format, turned, with colours swapped, a broken-off copy, or a longer file it begins.
 */
import { useEffect, useState } from 'preact/hooks';
import { playersText } from './api';
import { getGameRelatives } from './generated/sdk.gen';
import type { RelativeGameDto } from './generated/types.gen';

const RELATIONS: Record<RelativeGameDto['relation'], string> = {
  same: 'the same game',
  prefix: 'a broken-off copy',
  extension: 'a longer file of it',
};

export function Relatives({ id }: { id: number }) {
  const [items, setItems] = useState<RelativeGameDto[] | null>(null);

  useEffect(() => {
    let current = true;
    setItems(null);
    // A game without an identity (409) or any other answer but a list shows nothing.
    getGameRelatives({ path: { id } }).then(({ data }) => {
      if (current) setItems(data?.items ?? []);
    });
    return () => {
      current = false;
    };
  }, [id]);

  if (!items || items.length === 0) return null;
  return (
    <section class="relatives">
      <h2>Other files of this game</h2>
      <ul>
        {items.map((game) => (
          <li>
            <a href={`#/games/${game.id}`}>{playersText(game.players)}</a>
            <span class="muted">
              {' '}
              · {RELATIONS[game.relation]}
              {game.publisher ? ` · ${game.publisher} ${game.version ?? ''}` : ''}
              {game.transform ? ` · ${game.transform}` : ''}
              {game.coloursSwapped ? ' · colours swapped' : ''}
              {` · #${game.id}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
