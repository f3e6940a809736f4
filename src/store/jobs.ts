/**
 * Trade jobs (plugins/trade): one record per job id, its whole state as JSON, and its status kept
 * beside it so a transition can be guarded by the status it leaves — two executes of one job cannot
 * both move it from QUOTED to EXECUTING, within a process or across instances sharing the store.
 */
export interface StoredJob<T = unknown> {
  id: string
  status: string
  job: T
  updatedAt: number
}

export interface JobStore {
  /** Creates the job; false when the id is taken. */
  create(id: string, status: string, job: unknown, nowMs?: number): Promise<boolean>
  /** Replaces the job when its status is one of `from`; false otherwise (another transition won). */
  transition(id: string, from: readonly string[], status: string, job: unknown, nowMs?: number): Promise<boolean>
  get<T>(id: string): Promise<StoredJob<T> | undefined>
  /**
   * Binds an on-chain transaction (its signature) to the job that executes it, once and for good:
   * answers the owning job's id — `jobId` when it won or already owned it, another job's otherwise.
   * One transaction is one swap, so it is executed (and its fee charged) under one job only.
   */
  claimTransaction(signature: string, jobId: string): Promise<string>
}
