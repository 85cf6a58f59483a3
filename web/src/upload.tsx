/**
 * Uploading: a file picker and a drop zone. Each file goes to POST /games as its raw bytes; a file
 * holding several games (an SGF collection, a PDN database), which that refuses with
 * `upload.collection`, goes to POST /uploads instead. The token, when the archive asks for one, is
 * the one held for this tab (credentials.ts), which the page asks for when an upload is refused for
 * want of it.
 */
import { useState } from 'preact/hooks';
import { problemText } from './api';
import { uploadFile, uploadGame } from './generated/sdk.gen';
import { TokenForm, useHeldToken } from './token';

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
  const held = useHeldToken();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const [busy, setBusy] = useState(false);
  const [over, setOver] = useState(false);
  // The token form opens by itself when the archive refuses an upload for its token (none, a bad one, one without the scope).
  const [tokenWanted, setTokenWanted] = useState(false);

  const send = async (files: readonly File[]) => {
    if (files.length === 0) return;
    setBusy(true);
    for (const file of files) {
      const outcome = await uploadOne(file);
      if (outcome.code?.startsWith('auth.')) setTokenWanted(true);
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
      {held && !tokenWanted ? (
        <p class="muted">Uploads are sent with the token kept for this tab.</p>
      ) : (
        <details class="key" open={tokenWanted}>
          <summary>Token</summary>
          <p class="muted">Only when the archive asks for one: a token with the scope games:write.</p>
          <TokenForm onSaved={() => setTokenWanted(false)} />
        </details>
      )}
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
