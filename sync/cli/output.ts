// Writing to a reader that may go away: `vorort status | head -2` closes the pipe after two lines.
// Node reports that as an EPIPE error on the stream, which would end the process with a stack
// trace; here the rest of the output is dropped instead and the command ends as it would have.

let installed = false;

export function quietOnBrokenPipe(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') {
        // Every later write goes nowhere, without another error.
        stream.write = (() => true) as typeof stream.write;
        return;
      }
      throw error;
    });
  }
}
