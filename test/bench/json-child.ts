// A bench's measurement in a child process of its own (`node ARGS`), which prints its figures as
// the JSON of its last line of output: the sync's peak memory and the host's event loop are those
// of a process that does only that, not of the bench's, which holds the other cases' garbage.
import { spawn } from 'node:child_process';

/** Runs `node args` to its end: the JSON of its last line; its error output when it fails. */
export async function figuresOfChild<T>(args: readonly string[], label: string): Promise<T> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`${label} exited with ${code}: ${stderr}`);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;
}
