/**
 * `npm start` (after infra/bin/raly.mjs installed dependencies): ensures the native stack,
 * applies migrations, then runs every service, the BFF and the web app in dev
 * mode with prefixed logs. Ctrl-C stops them and the stack components this run
 * started (components that were already running are left alone).
 */
import { nativeEndpoints, stackEnvironment } from '../stack/endpoints';
import { httpAnswers } from '../stack/probes';
import { removeRunRecord, writeRunRecord } from '../stack/processes';
import { ports } from '../stack/settings';
import { ensureStack, stopStack } from '../stack/stack';
import { runNpm, runnableWorkspaces, shortName, workspaceScripts, type NpmRun } from './workspaces';

const webUrl = `http://localhost:${ports.web}`;
const running = new Map<string, NpmRun>();
let startedComponents: string[] = [];
let shuttingDown = false;

function appRecordName(workspace: string): string {
  return `app-${shortName(workspace)}`;
}

async function stopChild(workspace: string, run: NpmRun): Promise<void> {
  const pid = run.child.pid;
  if (pid !== undefined && run.child.exitCode === null && run.child.signalCode === null) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const killer = setTimeout(() => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 10_000);
    await run.done;
    clearTimeout(killer);
  }
  removeRunRecord(appRecordName(workspace));
}

async function shutDown(signal: string, exitCode = 0): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`\n${signal}: stopping Raly…`);
  await Promise.all([...running].map(([workspace, run]) => stopChild(workspace, run)));
  if (startedComponents.length > 0) {
    const stopped = await stopStack(startedComponents);
    console.log(`stopped stack components started by this run: ${stopped.join(', ') || 'none'}`);
  }
  console.log('Raly stopped.');
  process.exit(exitCode);
}

async function waitForWeb(): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  while (!shuttingDown && Date.now() < deadline) {
    if (await httpAnswers(webUrl)) {
      console.log(
        `\nRaly is running: open ${webUrl}\n(Ctrl-C stops it; \`npm stop\` from another terminal does too)\n`,
      );
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  if (!shuttingDown)
    console.log(`web did not answer on ${webUrl} within 5 min; see the [web] lines above`);
}

async function main(): Promise<void> {
  process.once('SIGINT', () => void shutDown('SIGINT'));
  process.once('SIGTERM', () => void shutDown('SIGTERM'));
  const outcome = await ensureStack();
  startedComponents = Object.entries(outcome)
    .filter(([, result]) => result === 'started')
    .map(([name]) => name);
  const endpoints = nativeEndpoints();

  for (const [index, workspace] of runnableWorkspaces.entries()) {
    if (!workspaceScripts(workspace).migrate) continue;
    const { done } = runNpm(['run', 'migrate', '-w', workspace, '--if-present'], {
      label: `${shortName(workspace)} migrate`,
      index,
      env: stackEnvironment(endpoints, workspace),
      collect: false,
    });
    const { code } = await done;
    if (code !== 0) throw new Error(`migrations of ${workspace} failed (exit ${code})`);
  }

  for (const [index, workspace] of runnableWorkspaces.entries()) {
    if (shuttingDown) return;
    if (!workspaceScripts(workspace).dev) {
      console.log(`[${shortName(workspace)}] no dev script yet: skipped`);
      continue;
    }
    const run = runNpm(['run', 'dev', '-w', workspace, '--if-present'], {
      label: shortName(workspace),
      index,
      // The BFF trusts X-Forwarded-For only from the Vite dev proxy on loopback (docs/api.md).
      env: { ...stackEnvironment(endpoints, workspace), TRUST_PROXY: 'loopback' },
      detached: true,
      collect: false,
    });
    running.set(workspace, run);
    if (run.child.pid !== undefined) {
      writeRunRecord({
        component: appRecordName(workspace),
        kind: 'process',
        pid: run.child.pid,
        command: `npm run dev -w ${workspace}`,
        startedAt: new Date().toISOString(),
      });
    }
    void run.done.then(({ code }) => {
      removeRunRecord(appRecordName(workspace));
      if (!shuttingDown)
        console.log(`[${shortName(workspace)}] exited (code ${code}); the others keep running`);
    });
  }
  if (running.has('web')) await waitForWeb();
  else console.log('\nRaly backend is running (no web dev script yet). Ctrl-C stops it.');
}

main().catch(async (error: unknown) => {
  console.error((error as Error).message);
  await shutDown('error', 1);
});
