import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chown, mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A PostgreSQL server that lives for one test file. */
export interface ThrowawayPostgres {
  url: string;
  /** The server's main process (the postmaster; its children serve the connections). */
  pid(): number | undefined;
  stop(): Promise<void>;
}

function postgresBinDir(): string | undefined {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(base, versions[0], "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * Start a throwaway cluster on loopback (Debian `postgresql` package), or return undefined when
 * PostgreSQL is not installed so the caller can skip. initdb refuses to run as root, so as root the
 * binaries run as the `postgres` user.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres | undefined> {
  const bin = postgresBinDir();
  if (!bin) return undefined;
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), "skillpilot-pg-"));
  const pg = (tool: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  try {
    if (asRoot) {
      const { stdout } = await run("id", ["-u", "postgres"]);
      const { stdout: gid } = await run("id", ["-g", "postgres"]);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const port = await freePort();
    const data = path.join(dir, "data");
    await pg("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
    await pg("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(dir, "log"),
      "-w",
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${dir}`,
      "start",
    ]);
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      pid() {
        try {
          return Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        } catch {
          return undefined;
        }
      },
      async stop() {
        await pg("pg_ctl", ["-D", data, "-w", "-m", "immediate", "stop"]).catch(() => undefined);
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
