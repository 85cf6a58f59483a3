import { existsSync, fsyncSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type NodeFsInit = Awaited<ReturnType<NodeFS['init']>>;
interface NodeFsStream {
  nfd?: number;
}
interface EmscriptenModuleWithFs {
  FS: {
    filesystems: {
      NODEFS: {
        stream_ops: { fsync?: (stream: NodeFsStream) => number; write: (stream: NodeFsStream, ...rest: unknown[]) => number };
        /** Runs a Node fs call, turning its error into Emscripten's errno error. */
        tryFSOperation<T>(operation: () => T): T;
      };
    };
  };
}

/**
 * PGlite's Node filesystem (Emscripten's NODEFS) with a working fsync.
 *
 * Postgres compiled to WebAssembly calls fsync() through Emscripten's `fd_sync`, which calls the
 * mounted filesystem's `stream_ops.fsync` — and NODEFS has none, so every fsync silently succeeds
 * without reaching the disk (fdatasync is a no-op in Emscripten whatever the filesystem). This
 * class gives NODEFS an fsync that is Node's `fsyncSync` on the real file descriptor, so with
 * `fsync=on` and `wal_sync_method=fsync` a commit is on disk before it is acknowledged, and a
 * checkpoint's data files are on disk before the WAL they replace is recycled.
 */
export class DurableNodeFS extends NodeFS {
  /** fsync calls that reached the disk, for tests and benchmarks. */
  syncs = 0;

  /**
   * @param faultFile For fault tests only: while this file exists, every write fails with ENOSPC, as
   *   on a full disk, where PGlite meets it (the process cannot be given a small volume without root).
   */
  constructor(
    dataDir: string,
    private readonly faultFile?: string,
  ) {
    super(dataDir);
  }

  override async init(pg: PGlite, options: Parameters<NodeFS['init']>[1]): Promise<NodeFsInit> {
    const result = await super.init(pg, options);
    const preRun = [...((result.emscriptenOpts.preRun as unknown[] | undefined) ?? [])];
    preRun.push((mod: EmscriptenModuleWithFs) => {
      const nodefs = mod.FS.filesystems.NODEFS;
      nodefs.stream_ops.fsync = (stream) => {
        // Every NODEFS stream, directories included, holds a real descriptor. A failed fsync becomes
        // an errno for Postgres, which then PANICs rather than trust the data (data_sync_retry=off).
        const fd = stream.nfd;
        if (fd !== undefined) nodefs.tryFSOperation(() => fsyncSync(fd));
        this.syncs++;
        return 0;
      };
      const faultFile = this.faultFile;
      if (faultFile !== undefined) {
        const write = nodefs.stream_ops.write;
        nodefs.stream_ops.write = function (this: unknown, stream, ...rest) {
          if (existsSync(faultFile)) {
            return nodefs.tryFSOperation(() => {
              throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
            });
          }
          return write.call(this, stream, ...rest);
        };
      }
    });
    return { emscriptenOpts: { ...result.emscriptenOpts, preRun: preRun as never } };
  }
}
