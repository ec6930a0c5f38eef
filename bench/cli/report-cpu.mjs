// Loaded with `node --import` into every measured process (the baseline too): at exit, write the
// process's own user+system CPU (its whole life, start-up included) to stderr as one marked line.
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\n@@cpu ${(user + system) / 1000}\n`);
});
