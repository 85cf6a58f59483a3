import { Injectable } from '@nestjs/common';
import { mayActOn, ownerScope } from '../accounts/access.js';
import type { Caller } from '../accounts/caller.js';
import { gameFilters } from '../catalog/cursor.js';
import { ProblemException } from '../common/problem-codes.js';
import { checkedTags } from '../common/tags.js';
import { InjectReads } from '../database/read-replicas.js';
import type { Reads } from '../database/read-replicas.js';
import type { GameId } from '../http/game-id.pipe.js';
import type { ChangeTagsDto, ChangeTagsPageDto, ChangeTagsQuery, GameTagsDto, TagCountDto, TagCountsQuery } from './dto/tags.dto.js';
import { TagsRepository } from './tags.repository.js';

/**
 * Tags: the owner's words about a game. Writing them needs `games:write` on the game, as storing it
 * does: the game's owner's tokens, or an admin's (src/accounts/access.ts). The file's bytes, and
 * what is read out of them, never change.
 */
@Injectable()
export class TagsService {
  constructor(
    private readonly tags: TagsRepository,
    // GET /tags reads on a replica when there is one (DATABASE_REPLICA_URLS).
    @InjectReads(TagsRepository) private readonly reads: Reads<TagsRepository>,
  ) {}

  /** Sets a game's tags to the list sent (400 `tag.invalid` for a bad one); 404 when there is no such game. */
  async replace(id: GameId, body: unknown, caller: Caller): Promise<GameTagsDto> {
    const owner = await this.tags.ownerOf(id);
    if (owner === undefined) throw notFound(id);
    mayActOn(caller, 'games:write', owner, `game ${id}`);
    const tags = checkedTags(body, 'the body');
    const stored = await this.tags.replace(id, tags);
    if (stored === undefined) throw notFound(id);
    return { id: Number(id), tags: stored };
  }

  /**
   * Adds and removes tags on the next batch of games of a search, in ascending id after `after`:
   * a club's token changes the club's games only (an admin's, any).
   */
  async change(query: ChangeTagsQuery, body: ChangeTagsDto, caller: Caller): Promise<ChangeTagsPageDto> {
    const { after, limit: asked, ...filters } = query;
    const limit = asked ?? 1000;
    const scoped = { ...filters, owner: ownerScope(caller, 'games:write', filters.owner) };
    const add = body.add === undefined ? [] : checkedTags(body.add, 'add');
    const remove = body.remove === undefined ? [] : checkedTags(body.remove, 'remove');
    if (add.length === 0 && remove.length === 0) throw new ProblemException(400, 'request.invalid', 'the body names no tag to add or remove: send {"add": [...]} and/or {"remove": [...]}');
    const both = add.find((tag) => remove.includes(tag));
    if (both !== undefined) throw new ProblemException(400, 'tag.invalid', `the tag ${JSON.stringify(both)} is both to add and to remove`);
    const ids = await this.tags.idsAfter(gameFilters(scoped), after ?? 0, limit + 1);
    const batch = ids.slice(0, limit);
    const done = batch.length === 0 ? { changed: 0, full: [] } : await this.tags.change(batch, add, remove);
    return { matched: batch.length, changed: done.changed, full: done.full, next: ids.length > limit ? batch[batch.length - 1] : null };
  }

  /** Tags by their number of games, most first. */
  async counts(query: TagCountsQuery): Promise<TagCountDto[]> {
    return this.reads.read((tags) => tags.counts(query.prefix?.normalize('NFC'), query.limit ?? 100));
  }
}

function notFound(id: GameId): ProblemException {
  return new ProblemException(404, 'game.not_found', `there is no game ${id}`);
}
