import { LRUCache } from 'lru-cache';
import { clientSignal, RequestCancelled } from '../common/client-gone.js';

/**
 * Board pictures by ETag, at most `maxBytes` of them (the least recently asked for go first), and
 * the drawings under way: a picture asked for while it is being drawn waits for that drawing rather
 * than start another. A 2048 px PNG takes a thread for a second and some 16 MB while it is drawn;
 * a crowd asking for the same one costs one drawing. Should the client whose request started a
 * drawing leave (its drawing is then ended), a waiting client still there draws it again.
 */
export class PictureCache {
  private readonly done: LRUCache<string, string | Buffer> | undefined;
  private readonly drawing = new Map<string, Promise<string | Buffer>>();

  constructor(maxBytes: number) {
    this.done =
      maxBytes > 0
        ? new LRUCache<string, string | Buffer>({ maxSize: maxBytes, sizeCalculation: (picture) => Math.max(1, typeof picture === 'string' ? Buffer.byteLength(picture) : picture.length) })
        : undefined;
  }

  async get(etag: string, draw: () => Promise<string | Buffer>): Promise<string | Buffer> {
    for (;;) {
      const kept = this.done?.get(etag);
      if (kept !== undefined) return kept;
      const under = this.drawing.get(etag);
      if (under === undefined) return this.start(etag, draw);
      try {
        return await under;
      } catch (error) {
        // The drawing ended with its first client; this one is still here (or it would be cancelled too).
        if (!(error instanceof RequestCancelled) || clientSignal()?.aborted) throw error;
      }
    }
  }

  private async start(etag: string, draw: () => Promise<string | Buffer>): Promise<string | Buffer> {
    const drawn = draw();
    this.drawing.set(etag, drawn);
    try {
      const picture = await drawn;
      this.done?.set(etag, picture);
      return picture;
    } finally {
      this.drawing.delete(etag);
    }
  }
}
