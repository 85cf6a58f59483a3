#!/usr/bin/env node
import { runCli } from './program.js';

// A reader that stops early (`tabula --help | head`) closes the pipe: that ends the output, not in an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

// stdin through a getter: Node makes the stream when it is first asked for, and only login reads it.
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  get stdin() {
    return process.stdin;
  },
});
