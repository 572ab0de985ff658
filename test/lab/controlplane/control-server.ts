import http from 'node:http';
import type { ControlPlane } from './control-plane.ts';

/** The faults and components a test may drive from its worker process. */
const ACTIONS = {
  'apiserver/stop': (plane: ControlPlane) => plane.stopApiServer(),
  'apiserver/kill': (plane: ControlPlane) => plane.killApiServer(),
  'apiserver/start': (plane: ControlPlane) => plane.startApiServer(),
  'etcd/restart': (plane: ControlPlane) => plane.restartEtcd(),
  // An etcd outage of a length the test chooses (the fault suite); element access reaches the
  // component without widening ControlPlane's API.
  'etcd/stop': (plane: ControlPlane) => plane['etcd'].stop(),
  'etcd/start': (plane: ControlPlane) => plane['etcd'].start(),
  // SIGKILL mid-write; etcd/start then brings it back on the same data directory.
  'etcd/kill': (plane: ControlPlane) => plane['etcd'].kill(),
  'scheduler/start': (plane: ControlPlane) => plane.startScheduler(),
  'scheduler/stop': (plane: ControlPlane) => plane.stopScheduler(),
  'controller-manager/start': (plane: ControlPlane) => plane.startControllerManager(),
  'controller-manager/stop': (plane: ControlPlane) => plane.stopControllerManager(),
} as const;

export type ControlAction = keyof typeof ACTIONS;

/**
 * Vitest runs tests in worker processes while the control plane lives in the globalSetup
 * process; this loopback endpoint lets a test stop, kill or restart a component.
 */
export async function startControlServer(plane: ControlPlane): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const action = (req.url ?? '').replace(/^\//, '');
    if (req.method === 'GET' && action === 'status') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(plane.status));
      return;
    }
    if (req.method !== 'POST' || !Object.hasOwn(ACTIONS, action)) {
      res.writeHead(404).end(`unknown action ${action}; known: ${Object.keys(ACTIONS).join(', ')}`);
      return;
    }
    ACTIONS[action as ControlAction](plane).then(
      () => res.writeHead(200).end('ok'),
      (error: unknown) => res.writeHead(500).end(error instanceof Error ? error.message : String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('control server has no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
