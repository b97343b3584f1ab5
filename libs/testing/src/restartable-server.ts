import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

async function waitForPort(port: number, open: boolean, name: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (isOpen === open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${name} on ${port} did not ${open ? 'start' : 'stop'}`);
}

/**
 * A server process on a loopback port that a test may stop and start again
 * (to prove what happens while a dependency is away): start() waits until
 * the port answers, stop() until the process has exited and the port is closed.
 */
export function restartableServer(command: string, args: string[], port: number) {
  let child: ChildProcess | undefined;
  return {
    async start() {
      child = spawn(command, args, { stdio: 'ignore' });
      await waitForPort(port, true, command);
    },
    async stop() {
      if (!child) return;
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      child = undefined;
      await waitForPort(port, false, command);
    },
  };
}
