/**
 * SIGKILL during load: nothing acknowledged before the kill may be lost.
 *
 * @module
 */
import { type ApiKey, check, clientFor, startServer, stopServer } from "./harness.js";

const ROUNDS = Number(process.env.ROUNDS ?? 12);

export async function killRounds(root: ApiKey, orgId: string): Promise<number> {
  let acknowledged = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const server = await startServer();
    const client = clientFor(server.baseUrl, root, orgId);
    const acked: string[] = [];
    let stop = false;
    const workers = Array.from({ length: 8 }, async (_, w) => {
      for (let i = 0; !stop && i < 200; i++) {
        try {
          const result = await client.createWallet({ walletName: `kill-${round}-${w}-${i}`, accounts: [] });
          if (!stop) acked.push(result.activity.id);
        } catch {
          return;
        }
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1000 + Math.floor(Math.random() * 2000)));
    // Only what was acknowledged before the kill counts: responses read after it are not trusted.
    stop = true;
    const counted = [...acked];
    await stopServer(server, "SIGKILL");
    await Promise.allSettled(workers);
    const restarted = await startServer();
    const check2 = clientFor(restarted.baseUrl, root, orgId);
    let lost = 0;
    for (const activityId of counted) {
      const found = await check2.getActivity({ activityId }).then(
        (r) => r.activity.status === "ACTIVITY_STATUS_COMPLETED",
        () => false,
      );
      if (!found) lost++;
    }
    check(
      `SIGKILL round ${round + 1}: none of ${counted.length} acknowledged activities lost`,
      lost === 0,
      `${lost} lost`,
    );
    acknowledged += counted.length;
    await stopServer(restarted);
  }
  return acknowledged;
}
