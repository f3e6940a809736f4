import { DatabaseSync } from 'node:sqlite'
import { RUNTIME } from './runtime.ts'

/** A value SQLite stores or answers. */
export type SqlValue = string | number | bigint | boolean | Uint8Array | null

/** Positional (`?`) or named (`$name`, bound as `{ name }`) parameters. */
type Args<Params> = Params extends unknown[] ? Params : [Params]

/** A prepared statement, as the store uses one: the subset `bun:sqlite` and `node:sqlite` share. */
export interface Statement<Row = unknown, Params = unknown[]> {
  run(...params: Args<Params>): { changes: number }
  /** The first row, or null when there is none. */
  get(...params: Args<Params>): Row | null
  all(...params: Args<Params>): Row[]
}

/** A SQLite database as the store uses one. Both runtimes' drivers are synchronous. */
export interface Database {
  /** Runs SQL without parameters (schema, pragmas). */
  run(sql: string): void
  /** A prepared statement, kept per SQL text: asking again for the same SQL costs a lookup. */
  query<Row = unknown, Params = unknown[]>(sql: string): Statement<Row, Params>
  /** `fn` wrapped in BEGIN … COMMIT (ROLLBACK when it throws); not nested. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R
  close(): void
}

// `bun:sqlite` is loaded only where it exists; `node:sqlite` is on both runtimes.
const bunSqlite = RUNTIME === 'bun' ? await import('bun:sqlite') : undefined

/**
 * Opens (creating it) the database at `path`, or an in-memory one for `:memory:`, with named parameters
 * bound without their `$` (`{ key }` for `$key`): `bun:sqlite` in strict mode on Bun, `node:sqlite` on
 * Deno.
 */
export function openDatabase(path: string): Database {
  return bunSqlite ? openBunSqlite(path) : openNodeSqlite(path)
}

/** Bun's driver as it is: its Database has this interface's methods, with the same meaning. */
export function openBunSqlite(path: string): Database {
  const { Database: BunDatabase } = bunSqlite ?? unavailable('bun:sqlite')
  return new BunDatabase(path, { create: true, strict: true }) as unknown as Database
}

/** `node:sqlite` (Deno; Bun has it too, which is how the tests hold both to the same behaviour). */
export function openNodeSqlite(path: string): Database {
  const db = new DatabaseSync(path)
  const statements = new Map<string, Statement>()
  const prepare = (sql: string): Statement => {
    const statement = db.prepare(sql)
    type Bound = Parameters<typeof statement.run>
    return {
      run: (...params) => ({ changes: Number(statement.run(...(params as Bound)).changes) }),
      get: (...params) => (statement.get(...(params as Bound)) as unknown) ?? null,
      all: (...params) => statement.all(...(params as Bound)),
    }
  }
  return {
    run: (sql) => db.exec(sql),
    query<Row, Params>(sql: string) {
      let statement = statements.get(sql)
      if (!statement) {
        statement = prepare(sql)
        statements.set(sql, statement)
      }
      return statement as unknown as Statement<Row, Params>
    },
    transaction<A extends unknown[], R>(fn: (...args: A) => R) {
      return (...args: A): R => {
        db.exec('BEGIN')
        try {
          const result = fn(...args)
          db.exec('COMMIT')
          return result
        } catch (error) {
          db.exec('ROLLBACK')
          throw error
        }
      }
    },
    close: () => db.close(),
  }
}

function unavailable(driver: string): never {
  throw new Error(`${driver} is not available on ${RUNTIME}`)
}
