import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** A mail worker started as `npm run mail-worker` does (node on the built main.js), with its ports read from its start line. */
export interface WorkerProcess {
  child: ChildProcess;
  httpPort: number;
  smtpPort: number | null;
  output: () => string;
  stop: () => Promise<void>;
}

export const WORKER_MAIN = join(__dirname, '..', '..', 'dist', 'src', 'integrations', 'mail', 'main.js');

export function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', MAIL_WORKER_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mail worker did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.includes('"mail worker listening"'));
      if (!line) return;
      clearTimeout(timer);
      const started = JSON.parse(line) as { http_port: number; smtp_port: number | null };
      resolve({
        child,
        httpPort: started.http_port,
        smtpPort: started.smtp_port,
        output: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mail worker exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the worker to its exit (a refused start): its exit code and stderr. */
export function runWorkerToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}
