import { InvalidArgumentError } from "commander";

/**
 * A cap flag's value (`--max-expanded-mb 256`, `--max-pages 50`): a whole number from 1 up, else
 * a usage error (exit 2).
 */
export function capArgument(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`expected a whole number from 1 up, got "${value}".`);
  return n;
}
