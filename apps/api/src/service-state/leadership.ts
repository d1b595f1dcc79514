/** A job that must run in one process for the whole service (the expiry sweep, the webhook delivery loop). */
export interface ServiceJob {
  start(): void | Promise<void>
  stop(): void | Promise<void>
}

/**
 * Which process runs the one-per-service jobs. On SQLite that is fixed when the process starts (the only process, or
 * the cluster's sweeper worker); on PostgreSQL it is whichever API node holds an advisory lock, and another node
 * takes over when that one is gone (postgres-leadership.ts). Jobs are started when this process becomes the one and
 * stopped when it stops being it.
 */
export abstract class Leadership {
  private readonly jobs: ServiceJob[] = []
  private leading = false
  /** Transitions run one after another, so a job is never started twice nor stopped while starting. */
  private transition: Promise<void> = Promise.resolve()

  constructor(private readonly onError: (message: string, err: unknown) => void) {}

  /** Registers a job; it starts at once if this process leads already. */
  whileLeading(job: ServiceJob): void {
    this.jobs.push(job)
    if (this.leading) this.transition = this.transition.then(() => this.run(job, 'start'))
  }

  isLeading(): boolean {
    return this.leading
  }

  /** Begins: a fixed leader starts its jobs (resolves once they have started), PostgreSQL's tries for the lock. */
  abstract start(): Promise<void>

  /** Stops the jobs (awaited) and gives up the lead. */
  abstract stop(): Promise<void>

  protected lead(): Promise<void> {
    return this.switchTo(true)
  }

  protected abdicate(): Promise<void> {
    return this.switchTo(false)
  }

  private switchTo(leading: boolean): Promise<void> {
    this.transition = this.transition.then(async () => {
      if (this.leading === leading) return
      this.leading = leading
      for (const job of leading ? this.jobs : [...this.jobs].reverse()) await this.run(job, leading ? 'start' : 'stop')
    })
    return this.transition
  }

  private async run(job: ServiceJob, step: 'start' | 'stop'): Promise<void> {
    try {
      await job[step]()
    } catch (err) {
      this.onError(`[jobs] a one-per-service job failed to ${step}`, err)
    }
  }
}

/** Decided at start: this process runs the jobs (`runs`) or never does. */
export class FixedLeadership extends Leadership {
  constructor(
    private readonly runs: boolean,
    onError: (message: string, err: unknown) => void = () => undefined,
  ) {
    super(onError)
  }

  async start(): Promise<void> {
    if (this.runs) await this.lead()
  }

  stop(): Promise<void> {
    return this.abdicate()
  }
}
