import { checkAgainstSpec } from '../support/spec-check.js';

/** The check every end-to-end answer goes through must be able to fail. */
describe('checkAgainstSpec', () => {
  const problemJson = (body: unknown, status: number, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'r1', ...headers } });
  const validProblem = { type: 'https://tabula.invalid/problems/game-not-found', title: 'Not found', status: 404, code: 'game.not_found', detail: 'there is no game 5' };

  it('passes a documented answer', async () => {
    expect(await checkAgainstSpec('GET', new URL('http://x/games/5'), new Headers(), problemJson(validProblem, 404))).toBeUndefined();
  });

  it('flags an undocumented status, a bad body, a missing required header and an unknown route', async () => {
    expect((await checkAgainstSpec('GET', new URL('http://x/games/5'), new Headers(), problemJson(validProblem, 418)))?.problems[0]).toMatch(/status 418 is not documented/);
    const badCode = await checkAgainstSpec('GET', new URL('http://x/games/5'), new Headers(), problemJson({ ...validProblem, code: 'nope' }, 404));
    expect(badCode?.problems.join('\n')).toMatch(/body \/code/);
    const noId = new Response(JSON.stringify(validProblem), { status: 404, headers: { 'Content-Type': 'application/problem+json' } });
    expect((await checkAgainstSpec('GET', new URL('http://x/games/5'), new Headers(), noId))?.problems).toContain('the required header X-Request-Id is missing');
    const wrongType = new Response('<a/>', { status: 200, headers: { 'Content-Type': 'application/xml', 'X-Request-Id': 'r1', ETag: 'W/"1"' } });
    expect((await checkAgainstSpec('GET', new URL('http://x/games/5'), new Headers(), wrongType))?.problems[0]).toMatch(/content type application\/xml/);
    const nullId = new Response(JSON.stringify({ items: [], next: 5 }), { status: 200, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r1', ETag: 'W/"1"' } });
    expect((await checkAgainstSpec('GET', new URL('http://x/games'), new Headers(), nullId))?.problems.join('\n')).toMatch(/body \/next/);
    expect((await checkAgainstSpec('GET', new URL('http://x/elsewhere'), new Headers(), new Response('x', { status: 200 })))?.problems[0]).toMatch(/no operation/);
  });
});
