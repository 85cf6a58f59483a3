/**
 * Uploading: a file picker and a drop zone. Each file goes to POST /games as its raw bytes; a file
 * holding several games (an SGF collection, a PDN database), which that refuses with
 * `upload.collection`, goes to POST /uploads instead. The API key, when the archive asks for one,
 * is kept in this browser's localStorage and sent as a Bearer token.
 */
import { useState } from 'preact/hooks';
import { apiKey, problemText, setApiKey } from './api';
import { uploadFile, uploadGame } from './generated/sdk.gen';

interface Outcome {
  readonly file: string;
  readonly games: readonly { id: number; outcome: string }[];
  readonly error?: string;
  /** The problem's code, when the archive refused the file. */
  readonly code?: string;
}

export function UploadPage() {
  return (
    <>
      <h1>Upload</h1>
      <UploadPanel />
    </>
  );
}

export function UploadPanel() {
  const [key, setKey] = useState(apiKey);
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  // The key field opens by itself when the archive asks for a key.
  const [keyWanted, setKeyWanted] = useState(false);

  const send = async (files: readonly File[]) => {
    if (files.length === 0) return;
    setBusy(true);
    for (const file of files) {
      const outcome = await uploadOne(file);
      if (outcome.code?.startsWith('auth.')) setKeyWanted(true);
      setOutcomes((shown) => [outcome, ...shown]);
    }
    setBusy(false);
  };

  return (
    <section class="upload" aria-labelledby="upload-title">
      <h2 id="upload-title">Add games</h2>
      <div
        class={`dropzone${over ? ' over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          send([...(event.dataTransfer?.files ?? [])]);
        }}
      >
        <p>Drop game files here, or</p>
        <label class="button">
          choose files…
          <input
            type="file"
            multiple
            class="visually-hidden"
            onChange={(event) => {
              const input = event.currentTarget as HTMLInputElement;
              send([...(input.files ?? [])]);
              input.value = '';
            }}
          />
        </label>
        {busy && <p aria-live="polite">Uploading…</p>}
      </div>
      <details class="key" open={key !== '' || keyWanted}>
        <summary>API key</summary>
        <label>
          Key <span class="muted">(only when the archive asks for one; kept in this browser)</span>
          <input
            type="password"
            autocomplete="off"
            value={key}
            onInput={(event) => {
              const value = (event.currentTarget as HTMLInputElement).value;
              setKey(value);
              setApiKey(value);
            }}
          />
        </label>
      </details>
      {outcomes.length > 0 && (
        <ul class="uploaded" aria-live="polite">
          {outcomes.map((outcome) => (
            <li>
              <strong>{outcome.file}</strong>:{' '}
              {outcome.error ? (
                <span class="problem" role="alert">
                  {outcome.error}
                </span>
              ) : (
                outcome.games.map((game, index) => (
                  <>
                    {index > 0 ? ', ' : ''}
                    <a href={`#/games/${game.id}`}>game {game.id}</a> ({game.outcome})
                  </>
                ))
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

async function uploadOne(file: File): Promise<Outcome> {
  // The bytes as they are, with the browser's idea of their type (the archive keeps it with the file).
  const request = { body: file, query: { filename: file.name }, headers: { 'Content-Type': file.type || 'application/octet-stream' } };
  const single = await uploadGame(request);
  if (single.data) {
    return { file: file.name, games: [{ id: single.data.id, outcome: single.response.status === 201 ? single.data.status : 'already stored' }] };
  }
  if (codeOf(single.error) !== 'upload.collection') {
    return { file: file.name, games: [], error: problemText(single.error, single.response), code: codeOf(single.error) };
  }
  const many = await uploadFile(request);
  if (!many.data) return { file: file.name, games: [], error: problemText(many.error, many.response), code: codeOf(many.error) };
  return { file: file.name, games: many.data.games.filter((game) => game.gameId !== null).map((game) => ({ id: game.gameId!, outcome: game.outcome })) };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
