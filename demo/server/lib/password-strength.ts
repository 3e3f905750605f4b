import { Worker } from 'node:worker_threads';
import type { Language } from '../../../src/contract/languages';
import type { StrengthWarning } from '../../../src/contract/schemas/password';

export interface Strength {
  score: 0 | 1 | 2 | 3 | 4;
  warning: StrengthWarning | null;
}

/** What the worker is asked (lib/password-strength-worker.ts), and what it answers. */
export interface StrengthAsked {
  id: number;
  password: string;
  userInputs: string[];
  language: Language;
}
export type StrengthAnswer = { id: number; strength: Strength } | { id: number; error: string };

/** How many estimates may wait for the worker, and how long one may take before the worker is replaced. */
export interface StrengthLimits {
  waiting: number;
  timeoutMs: number;
}

/**
 * The worker's first lines: the server's TypeScript loader (tsx) is not a worker's on Node 20, so the
 * worker registers it before it imports its module.
 */
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./password-strength-worker.ts', import.meta.url).href)}); })`;

/**
 * The time limit is a safety net: a password's own estimate is bounded to a fifth of a second or so,
 * but a language's first one starts the worker and ranks its dictionaries, seconds on a busy machine.
 */
const DEFAULT_LIMITS: StrengthLimits = { waiting: 16, timeoutMs: 20_000 };

interface Waiter {
  resolve(strength: Strength | null): void;
  timer: NodeJS.Timeout;
}

/**
 * How hard a new password is to guess (zxcvbn-ts), for the meter under a new-password field. The
 * estimates run on one worker thread, started at the first and kept; each language's dictionaries are
 * ranked there once. The browser no longer downloads them (docs/decisions/strength-on-server.md).
 *
 * `estimate` answers null instead of waiting behind too many others, or when the worker failed or took
 * too long (it is then replaced): the meter only advises, and stays quiet. Nothing is kept of a password.
 */
export class PasswordStrength {
  private worker: Worker | null = null;
  private readonly waiters = new Map<number, Waiter>();
  private nextId = 0;

  constructor(private readonly limits: StrengthLimits = DEFAULT_LIMITS) {}

  estimate(password: string, userInputs: string[], language: Language): Promise<Strength | null> {
    if (this.waiters.size >= this.limits.waiting) return Promise.resolve(null);
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.restart(), this.limits.timeoutMs);
      this.waiters.set(id, { resolve, timer });
      worker.postMessage({ id, password, userInputs, language } satisfies StrengthAsked);
    });
  }

  /** Ends the worker; estimates still waiting answer null. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.stopped();
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_BOOT, { eval: true });
    worker.unref();
    worker.on('message', (answer: StrengthAnswer) => {
      const waiter = this.waiters.get(answer.id);
      if (!waiter) return;
      this.waiters.delete(answer.id);
      clearTimeout(waiter.timer);
      waiter.resolve('strength' in answer ? answer.strength : null);
    });
    worker.on('error', () => this.worker === worker && this.stopped());
    worker.on('exit', () => this.worker === worker && this.stopped());
    this.worker = worker;
    return worker;
  }

  /** An estimate took too long: a new worker for the next ones. */
  private restart(): void {
    const worker = this.worker;
    this.stopped();
    void worker?.terminate();
  }

  private stopped(): void {
    this.worker = null;
    for (const { resolve, timer } of this.waiters.values()) {
      clearTimeout(timer);
      resolve(null);
    }
    this.waiters.clear();
  }
}
