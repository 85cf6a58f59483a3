import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import * as yauzl from 'yauzl';

/** A file read back out of a zip or tar. */
export interface Entry {
  name: string;
  bytes: Buffer;
}

/** Every entry of a zip, read by yauzl. */
export async function unzip(bytes: Buffer): Promise<Entry[]> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file!))));
  const entries: Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream!) chunks.push(chunk as Buffer);
        entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) });
        zip.readEntry();
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** Every entry of a tar, read by tar-stream's extractor. */
export async function untar(bytes: Buffer): Promise<Entry[]> {
  const extract = tar.extract();
  const entries: Entry[] = [];
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        entries.push({ name: header.name, bytes: Buffer.concat(chunks) });
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  Readable.from([bytes]).pipe(extract);
  await done;
  return entries;
}

/** The lines of an export's `manifest.ndjson`. */
export const manifestOf = (entries: Entry[]) =>
  entries
    .find((entry) => entry.name === 'manifest.ndjson')!
    .bytes.toString('utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);

/** A tar of these entries (a header's other fields as given, e.g. a type or a mode), written by tar-stream. */
export async function tarOf(entries: readonly (Partial<tar.Header> & { name: string; bytes?: Buffer })[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const { bytes, ...header } of entries) pack.entry(header, bytes ?? '');
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
