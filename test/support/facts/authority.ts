/**
 * The table both authority signals (mint-authority, freeze-authority) are held to: revoked → clean;
 * live → penalised unless the token list marks an issuer-controlled asset (verified and tagged
 * stablecoin, wrapped or lst), then an unpenalised note; the penalty from the options; the mint
 * missing → unknown. Each signal's test names its own authority, code, texts and penalty.
 */
import { describe, expect, test } from 'bun:test'
import { normaliseExtensions } from '../../../src/facts/mint.ts'
import type { MintFact, TokenListFact } from '../../../src/facts/types.ts'
import type { Factor, Signal } from '../../../src/pipeline/signal.ts'
import { issuerEntry, MINT, NOW, run, tokenList } from './index.ts'
import type { IssuerEntry } from '../../../src/onchain/issuers.ts'

export interface AuthoritySignalCase {
  signal: Signal
  /** The mint field holding this signal's authority, and the other one (which it must ignore). */
  authority: 'mintAuthority' | 'freezeAuthority'
  /** The typed field it owns. */
  revokedField: string
  code: string
  penalty: number
  title: string
  liveDetail: string
  exemptDetail: string
}

const HOLDER = 'Auth0r1111111111111111111111111111111111111'
const OTHER = 'Other11111111111111111111111111111111111111'

const list = tokenList

export function describeAuthoritySignal(spec: AuthoritySignalCase): void {
  const { signal, authority, revokedField, code, penalty, title } = spec
  const id = signal.meta.id
  const other = authority === 'mintAuthority' ? 'freezeAuthority' : 'mintAuthority'
  const mint = (own: string | null, others: string | null = null): MintFact => ({
    program: 'spl-token',
    supply: 1_000_000_000_000n,
    decimals: 6,
    mintAuthority: null,
    freezeAuthority: null,
    [authority]: own,
    [other]: others,
    extensions: normaliseExtensions([]),
  })
  const finding = (suffix: string, severity: Factor['severity'], impact: number, heading: string, detail: string) => ({
    code: `${code}${suffix}`,
    signal: id,
    severity,
    impact,
    hard_fail: false,
    // A live authority on a token nobody exempts caps the grade at C (docs/scoring.md).
    grade_ceiling: suffix === '' ? ('C' as const) : null,
    title: heading,
    detail,
    evidence: { authority: HOLDER },
  })
  const live = (impact = penalty): Factor => finding('', 'high', impact, title, spec.liveDetail)
  const exempt = (): Factor => finding('_EXEMPT', 'info', 0, `${title} (issuer-controlled asset)`, spec.exemptDetail)
  const fields = (revoked: boolean | null) => ({ [revokedField]: revoked })

  describe(`${id}: the authority signals' table`, () => {
    const registered = issuerEntry({ [authority]: HOLDER })
    const cases: {
      name: string
      mint: MintFact
      issuer?: IssuerEntry | null
      list?: TokenListFact
      factors: Factor[]
      revoked: boolean
    }[] = [
      { name: 'revoked, no registry: clean', mint: mint(null), factors: [], revoked: true },
      {
        name: 'revoked on a registered issuer-controlled asset: clean',
        mint: mint(null),
        issuer: registered,
        factors: [],
        revoked: true,
      },
      {
        name: 'revoked while the other authority is live: clean (not this signal)',
        mint: mint(null, OTHER),
        factors: [],
        revoked: true,
      },
      { name: 'live, registry not loaded: penalised', mint: mint(HOLDER), factors: [live()], revoked: false },
      { name: 'live, not registered: penalised', mint: mint(HOLDER), issuer: null, factors: [live()], revoked: false },
      {
        name: 'live, not registered, though verified and tagged stablecoin on the list: penalised',
        mint: mint(HOLDER),
        issuer: null,
        list: list(true, ['verified', 'stablecoin']),
        factors: [live()],
        revoked: false,
      },
      {
        name: "live on a registered asset, the registered issuer's key: info, not penalised",
        mint: mint(HOLDER),
        issuer: registered,
        factors: [exempt()],
        revoked: false,
      },
      {
        name: 'live on a registered asset that names no authority: info, not penalised',
        mint: mint(HOLDER),
        issuer: issuerEntry(),
        factors: [exempt()],
        revoked: false,
      },
      {
        name: 'live on a registered asset, but not the registered key: penalised (the change is flagged)',
        mint: mint(HOLDER),
        issuer: issuerEntry({ [authority]: OTHER }),
        factors: [live()],
        revoked: false,
      },
      {
        name: 'the evidence names this authority, not the other one',
        mint: mint(HOLDER, OTHER),
        factors: [live()],
        revoked: false,
      },
    ]

    test.each(cases)('$name', ({ mint: fact, issuer, list: tokens, factors, revoked }) => {
      const facts = {
        mint: fact,
        ...(issuer === undefined ? {} : { issuer }),
        ...(tokens ? { token_list: tokens } : {}),
      }
      expect(run(signal, facts)).toEqual({ status: 'ok', factors, fields: fields(revoked) })
    })

    test.each([{ value: -40 }, { value: 0 }])('the penalty comes from the options ($value)', ({ value }) => {
      const outcome = signal.detect(
        { get: (name) => (name === 'mint' ? mint(HOLDER) : undefined) as never },
        { penalty: value },
        { mint: MINT, now: NOW },
      )
      expect(outcome).toEqual({ status: 'ok', factors: [live(value)], fields: fields(false) })
    })

    test('the exemption ignores the penalty option: always 0', () => {
      const get = (name: string) =>
        (name === 'mint' ? mint(HOLDER) : name === 'issuer' ? registered : undefined) as never
      expect(signal.detect({ get }, { penalty: -40 }, { mint: MINT, now: NOW }).factors).toEqual([exempt()])
    })

    test.each([
      { name: 'nothing gathered', facts: {} },
      { name: 'only the registry entry', facts: { issuer: issuerEntry({ [authority]: HOLDER }) } },
    ])('mint not gathered ($name): unknown, naming mint, no penalty, field null', ({ facts }) => {
      expect(run(signal, facts)).toEqual({
        status: 'unknown',
        missing: ['mint'],
        factors: [
          {
            code: 'UNKNOWN',
            signal: id,
            severity: 'info',
            impact: 0,
            hard_fail: false,
            grade_ceiling: null,
            title: `${title.replace(/ live$/, '')}: not assessed`,
            detail: 'Could not be assessed: mint could not be gathered.',
            evidence: { missing: ['mint'] },
          },
        ],
        fields: fields(null),
      })
    })
  })
}
