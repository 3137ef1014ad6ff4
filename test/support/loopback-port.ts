// Whether something listens on a loopback port: a test's check that a listener it made (the
// login's redirect listener, a server) is there, or is gone once its work is done.
import { connect } from 'node:net';

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
