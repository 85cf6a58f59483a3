import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below a folder whose name ends with `suffix`, in a stable (sorted) order. */
export function filesUnder(folder: string, suffix = ''): string[] {
  return readdirSync(folder)
    .sort()
    .flatMap((name) => {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) return filesUnder(path, suffix);
      return name.endsWith(suffix) ? [path] : [];
    });
}
