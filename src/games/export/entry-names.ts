import type { FormatDescriptor } from '../../formats/plugin.js';
import type { ExportedFile } from '../games-export.repository.js';

/** Characters kept of a file name in an archive entry's name (before the id and the extension). */
const MAX_BASE = 60;

/**
 * The name of a game's entry in a zip or tar export: `<id>-<file name>.<extension>`. The id makes
 * it unique; the uploaded file name is reduced to something every unpacker writes where it is told:
 * no path separator, no `..`, no control or invisible formatting character, no leading dot, no
 * characters Windows refuses, at most 60 characters. The extension is the format's first (`.sgf`,
 * `.xml`, `.pdn`…), else the uploaded name's own when it is plain, else `.bin`.
 */
export function entryName(file: ExportedFile, format: FormatDescriptor | undefined): string {
  const uploaded = file.filename?.normalize('NFC') ?? '';
  const ownExtension = /\.([A-Za-z0-9]{1,8})$/.exec(uploaded);
  const base = safeBase(ownExtension ? uploaded.slice(0, ownExtension.index) : uploaded) || 'game';
  const extension = format?.extensions[0] ?? (ownExtension ? `.${ownExtension[1].toLowerCase()}` : '.bin');
  return `${file.id}-${base}${extension}`;
}

function safeBase(name: string): string {
  const cleaned = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[\s/\\:*?"<>|]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '');
  return [...cleaned].slice(0, MAX_BASE).join('').replace(/[._\s-]+$/, '');
}

/** A game's line in the manifest of a zip or tar export. */
export function manifestEntry(file: ExportedFile, name: string): Record<string, unknown> {
  return {
    id: file.id,
    name,
    sha256: file.sha256,
    size: file.raw.length,
    mediaType: file.mediaType,
    filename: file.filename,
    publisher: file.publisher,
    version: file.version,
    family: file.family,
    status: file.status,
    players: file.players.map((player) => ({ seat: player.seat, name: player.name, color: player.color, outcome: player.outcome })),
  };
}
