import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { startSandbox, type RunningSandbox } from '../sandbox/index.ts'
import { ephemeralSandboxOptions } from '../sandbox/options.ts'
import { tokenListFact } from '../src/facts/token-list.ts'
import { JupiterTokenSchema } from '../src/sources/jupiter.ts'

/**
 * Reality is the reference: every recorded upstream answer (test/fixtures/recorded/, each with its
 * source and date) passes the boundary schema the service validates that upstream with, and the
 * sandbox stand-in's answers to the same request pass the same schema — so the sandbox cannot drift
 * from what the real API serves.
 */
const RECORDED = join(import.meta.dir, 'fixtures', 'recorded')

interface Recorded {
  source: string
  retrieved: string
  request: string
  answer: unknown
}

const recorded = (folder: string): [string, Recorded][] =>
  readdirSync(join(RECORDED, folder))
    .filter((name) => name.endsWith('.json'))
    .map((name) => [name, require(join(RECORDED, folder, name)) as Recorded])

/** The boundary schema of each recorded request (by its path). */
const SCHEMAS: { path: RegExp; schema: TSchema }[] = [
  { path: /\/tokens\/v2\/search\?/, schema: Type.Array(JupiterTokenSchema) },
]
const schemaOf = (request: string) => SCHEMAS.find((entry) => entry.path.test(request))?.schema

const errorsOf = (schema: TSchema, value: unknown) =>
  [...Value.Errors(schema, value)].map((error) => `${error.path} ${error.message}`)

describe('recorded real answers', () => {
  test.each(recorded('jupiter'))('%s carries its source and date and passes the boundary schema', (_, fixture) => {
    expect(fixture.source.length).toBeGreaterThan(20)
    expect(fixture.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    const schema = schemaOf(fixture.request)
    expect(schema).toBeDefined()
    expect(errorsOf(schema!, fixture.answer)).toEqual([])
  })

  test('the token-list fact read from them: audit figures as published, absent flags not read as revoked', () => {
    const [sol] = recorded('jupiter').find(([name]) => name === 'tokens-v2-search-sol.json')![1].answer as never[]
    expect(tokenListFact(sol!)).toEqual({
      listed: true,
      verified: true,
      tags: ['community', 'strict', 'verified'],
      logoUri:
        'https://raw.githubusercontent.com/solana-labs/token-list/main/assets/mainnet/So11111111111111111111111111111111111111112/logo.png',
      holderCount: 2_342_610,
      topHoldersPct: 1.2422471238911812,
      organicScore: 98.92390784896082,
      organicScoreLabel: 'high',
      suspicious: false,
    })
    const [usdc] = recorded('jupiter').find(([name]) => name === 'tokens-v2-search-usdc.json')![1].answer as never[]
    // Real USDC carries no stablecoin tag: the exemption cannot rest on one.
    expect(tokenListFact(usdc!)).toMatchObject({
      verified: true,
      tags: ['community', 'strict', 'verified'],
      topHoldersPct: 42.1893635408922,
      holderCount: 4_197_146,
    })
  })
})

describe('the sandbox stand-ins answer in the recorded shapes', () => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox(ephemeralSandboxOptions())
  })
  afterAll(async () => {
    await sandbox?.stop()
  })

  test('aggregator: /tokens/v2/search of every scenario token passes the schema the recorded answers pass', async () => {
    const schema = schemaOf('/tokens/v2/search?query=')!
    for (const scenario of sandbox.file.scenarios) {
      const response = await fetch(`${sandbox.file.urls.jupiter}/tokens/v2/search?query=${scenario.mint}`)
      const answer = await response.json()
      expect({ scenario: scenario.name, errors: errorsOf(schema, answer) }).toEqual({
        scenario: scenario.name,
        errors: [],
      })
      // As the real API: the audit's *Disabled flags are present only when true.
      for (const entry of answer as { audit?: Record<string, unknown> | null }[])
        for (const flag of ['mintAuthorityDisabled', 'freezeAuthorityDisabled'])
          if (entry.audit && flag in entry.audit) expect(entry.audit[flag]).toBe(true)
    }
  })
})
