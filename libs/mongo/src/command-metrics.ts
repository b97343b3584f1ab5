import type { Connection } from 'mongoose';
import { Histogram } from 'prom-client';

const commandDuration = new Histogram({
  name: 'ris_mongodb_command_duration_seconds',
  help: 'MongoDB commands of this process as the driver timed them, by command and outcome',
  labelNames: ['command', 'outcome'],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
});

/**
 * Observes the driver's command monitoring events (the connection must be
 * opened with monitorCommands: true): one histogram observation per
 * command, labelled by its name (find, update, insert…), never its content.
 */
export function observeCommands(connection: Connection): void {
  const client = connection.getClient();
  client.on('commandSucceeded', (event) => commandDuration.observe({ command: event.commandName, outcome: 'ok' }, event.duration / 1000));
  client.on('commandFailed', (event) => commandDuration.observe({ command: event.commandName, outcome: 'error' }, event.duration / 1000));
}
