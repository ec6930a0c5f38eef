import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildArchives } from "../../../release/bundle/archives.js";
import type { BundleFile } from "../../../contract-model/file-tree/bundle-file.js";
import { BundleInputError, collectTree } from "../../../contract-model/file-tree/collect-tree.js";
import { fixedArchiveTime } from "../../../release/bundle/fixed-time.js";
import { matrixContent, writeVariantTree } from "./support/variant-tree.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const child = path.join(here, "support", "build-variant.ts");

interface Hashes {
  tar: string;
  tarGz: string;
  zip: string;
  umask: string;
  tz: string;
}

/**
 * Build the matrix tree in a separate process with its own umask and TZ, as a real checkout + build
 * would.
 */
function buildInChild(dir: string, umask: string, tz: string, variant: object): Hashes {
  const run = spawnSync(
    "sh",
    [
      "-c",
      `umask ${umask} && exec "$0" --import tsx "$1" "$2" "$3"`,
      process.execPath,
      child,
      dir,
      JSON.stringify(variant),
    ],
    {
      env: { ...process.env, TZ: tz },
      encoding: "utf8",
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Hashes;
}

describe("release/bundle: deterministic archives (L5)", () => {
  let work: string;
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), "sp-bundle-"));
  });
  after(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it(
    "L5: umask 022/077, TZ UTC/Pacific/Chatham, shuffled mtimes, reversed " +
      "creation order and an exec bit give one sha256 for tar, tar.gz and zip",
    () => {
      const variants = [
        { umask: "022", tz: "UTC", variant: {} },
        { umask: "077", tz: "UTC", variant: { reverse: true } },
        {
          umask: "022",
          tz: "Pacific/Chatham",
          variant: { mtimeSeed: 7, execOnDisk: ["scripts/run.sh"] },
        },
        {
          umask: "077",
          tz: "America/St_Johns",
          variant: { reverse: true, mtimeSeed: 991, execOnDisk: ["SKILL.md", "scripts/run.sh"] },
        },
      ];
      const results = variants.map((v, i) =>
        buildInChild(path.join(work, `matrix-${i}`), v.umask, v.tz, v.variant),
      );
      // The children really ran under the requested umask and time zone.
      assert.deepEqual(
        results.map((r) => [r.umask, r.tz]),
        [
          ["22", "UTC"],
          ["77", "UTC"],
          ["22", "Pacific/Chatham"],
          ["77", "America/St_Johns"],
        ],
      );
      for (const key of ["tar", "tarGz", "zip"] as const)
        assert.equal(
          new Set(results.map((r) => r[key])).size,
          1,
          `${key} differs across the matrix`,
        );
    },
  );

  it(
    "L5: 400 files built 8 times (each a fresh tree in another creation order " +
      "and mtimes) give one hash per archive",
    async () => {
      const content: Record<string, string> = {};
      for (let i = 0; i < 400; i++)
        content[`d${i % 13}/sub${i % 5}/file-${i}.txt`] = `file ${i}\n`.repeat(1 + (i % 17));
      const seen = { tar: new Set<string>(), tarGz: new Set<string>(), zip: new Set<string>() };
      for (let build = 0; build < 8; build++) {
        const dir = path.join(work, `many-${build}`);
        await writeVariantTree(dir, content, { reverse: build % 2 === 1, mtimeSeed: build * 31 });
        const files = await collectTree(dir);
        assert.equal(files.length, 400);
        const a = await buildArchives(files);
        seen.tar.add(a.sha256.tar);
        seen.tarGz.add(a.sha256.tarGz);
        seen.zip.add(a.sha256.zip);
      }
      assert.deepEqual([seen.tar.size, seen.tarGz.size, seen.zip.size], [1, 1, 1]);
    },
  );

  it(
    "L5: a golden tree keeps its golden hashes (a zlib or library change shows " + "up here)",
    async () => {
      const files: BundleFile[] = [
        { path: "plugin.json", data: Buffer.from('{"name":"skillpilot-coach"}\n'), mode: 0o644 },
        {
          path: "skills/skillpilot-coach/SKILL.md",
          data: Buffer.from("# SkillPilot Coach\n"),
          mode: 0o644,
        },
        {
          path: "skills/skillpilot-coach/scripts/check.sh",
          data: Buffer.from("#!/bin/sh\nexit 0\n"),
          mode: 0o755,
        },
      ];
      const a = await buildArchives(files, fixedArchiveTime({}));
      assert.deepEqual(a.sha256, GOLDEN);
    },
  );

  it(
    "L5: paths over 100 bytes use the USTAR prefix or a PAX record and read " +
      "back exactly with GNU tar and unzip",
    async () => {
      const dir = path.join(work, "names");
      await writeVariantTree(dir, matrixContent(), {});
      const a = await buildArchives(await collectTree(dir));
      const tarFile = path.join(work, "names.tar");
      const zipFile = path.join(work, "names.zip");
      await writeFile(tarFile, a.tar);
      await writeFile(zipFile, a.zip);
      const expected = Object.keys(matrixContent()).sort((x, y) =>
        Buffer.compare(Buffer.from(x), Buffer.from(y)),
      );
      assert.ok(
        expected.some((n) => Buffer.byteLength(n) > 100 && !n.startsWith("long/")),
        "fixture has a prefix-split path",
      );
      assert.ok(
        expected.some((n) => n.startsWith("long/") && Buffer.byteLength(n.slice(5)) > 100),
        "fixture has a name no prefix split can hold",
      );
      assert.deepEqual(
        execFileSync("tar", ["-tf", tarFile], { encoding: "utf8" }).trim().split("\n"),
        expected,
      );
      const zipNames = execFileSync("unzip", ["-Z1", zipFile], {
        encoding: "utf8",
        env: { ...process.env, LC_ALL: "C.UTF-8" },
      })
        .trim()
        .split("\n");
      assert.deepEqual(zipNames, expected);
      const verbose = execFileSync("tar", ["-tvf", tarFile], {
        encoding: "utf8",
        env: { ...process.env, TZ: "UTC" },
      });
      assert.match(
        verbose,
        /^-rw-r--r-- 0\/0 .* 1980-01-01 00:00 scripts\/run\.sh$/m,
        "mode and time come from the bundle, not the disk",
      );
    },
  );

  it("L5: mode 0755 only where the bundle declares it, never from the disk", async () => {
    const dir = path.join(work, "modes");
    await writeVariantTree(
      dir,
      { "bin/tool": "#!/bin/sh\n", "README.md": "x\n" },
      { execOnDisk: ["README.md"] },
    );
    const files = await collectTree(dir, { isExecutable: (p) => p.startsWith("bin/") });
    assert.deepEqual(
      files.map((f) => [f.path, f.mode.toString(8)]),
      [
        ["README.md", "644"],
        ["bin/tool", "755"],
      ],
    );
  });

  it("L5: a symlink in the tree fails the build with a clear message naming it", async () => {
    const dir = path.join(work, "with-link");
    await mkdir(path.join(dir, "skills"), { recursive: true });
    await writeFile(path.join(dir, "skills", "SKILL.md"), "x\n");
    await symlink("SKILL.md", path.join(dir, "skills", "alias.md"));
    await assert.rejects(
      collectTree(dir),
      (e: unknown) =>
        e instanceof BundleInputError &&
        /alias\.md: a symbolic link cannot be bundled/.test(e.message),
    );
  });

  it("L5: a FIFO in the tree fails the build", async () => {
    const dir = path.join(work, "with-fifo");
    await mkdir(dir, { recursive: true });
    execFileSync("mkfifo", [path.join(dir, "pipe")]);
    await assert.rejects(collectTree(dir), /pipe: a FIFO cannot be bundled/);
  });

  it("L5: SOURCE_DATE_EPOCH moves the fixed time forward but never below 1980", () => {
    assert.equal(fixedArchiveTime({}).toISOString(), "1980-01-01T00:00:00.000Z");
    assert.equal(
      fixedArchiveTime({ SOURCE_DATE_EPOCH: "0" }).toISOString(),
      "1980-01-01T00:00:00.000Z",
    );
    assert.equal(
      fixedArchiveTime({ SOURCE_DATE_EPOCH: "1700000000" }).toISOString(),
      "2023-11-14T22:13:20.000Z",
    );
  });
});

const GOLDEN = {
  tar: "5f7b02c4ea43cb930d520319e3cabc5001a9b53cb5be2818be8babb6c53bd51e",
  tarGz: "15e1c42311f196143e391ecfa3edb01d5a60c3943795eee0cde57cfd3ac2e832",
  zip: "d8d1f04bf953424ed8f2b54e8bf9ec6b281d137e431d118054cc718942cde764",
};
