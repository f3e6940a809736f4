import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { readParsedAccount } from './account-kind.ts'
import { FactUnavailable, type TokenContext } from './token-context.ts'
import type { MintExtensions, MintFact } from './types.ts'

const Extension = Type.Object({ extension: Type.String(), state: Type.Optional(Type.Unknown()) })

/** The `jsonParsed` mint the RPC returns for Token and Token-2022 (extra members allowed). */
const ParsedMint = Type.Object({
  program: Type.Union([Type.Literal('spl-token'), Type.Literal('spl-token-2022')]),
  parsed: Type.Object({
    type: Type.Literal('mint'),
    info: Type.Object({
      supply: Type.String({ pattern: '^\\d+$' }),
      decimals: Type.Integer({ minimum: 0, maximum: 255 }),
      mintAuthority: Type.Union([Type.String(), Type.Null()]),
      freezeAuthority: Type.Union([Type.String(), Type.Null()]),
      extensions: Type.Optional(Type.Array(Extension)),
    }),
  }),
})

/**
 * The mint account, in jsonParsed form, with every Token-2022 extension normalised. Read as the route's
 * account check read it (readParsedAccount), so a scan's mint and its refusal are one upstream call.
 */
export async function loadMint(facts: TokenContext): Promise<MintFact> {
  const value = await readParsedAccount(facts.rpc, facts.mint)
  if (!value) throw new FactUnavailable('no account at this address')
  const mint = mintOfAccount(value.data)
  if (!mint) throw new FactUnavailable('the account is not a Token or Token-2022 mint')
  return mint
}

/** The mint fact from an account's jsonParsed data; undefined when it is not a Token or Token-2022 mint. */
export function mintOfAccount(data: unknown): MintFact | undefined {
  if (!Value.Check(ParsedMint, data)) return undefined
  const { program, parsed } = data as Static<typeof ParsedMint>
  return {
    program,
    supply: BigInt(parsed.info.supply),
    decimals: parsed.info.decimals,
    mintAuthority: parsed.info.mintAuthority,
    freezeAuthority: parsed.info.freezeAuthority,
    extensions: normaliseExtensions(parsed.info.extensions ?? []),
  }
}

type State = Record<string, unknown>
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const integer = (value: unknown): bigint =>
  typeof value === 'bigint' ? value : typeof value === 'number' ? BigInt(value) : BigInt(String(value ?? 0))

/** Reads the RPC's `UiExtension` list into the fields the signals use; unknown ones are listed by name. */
export function normaliseExtensions(list: readonly { extension: string; state?: unknown }[]): MintExtensions {
  const extensions: MintExtensions = {
    transferFee: null,
    permanentDelegate: null,
    transferHook: null,
    nonTransferable: false,
    defaultAccountState: null,
    mintCloseAuthority: null,
    pausable: null,
    metadataPointer: null,
    tokenMetadata: null,
    other: [],
  }
  for (const { extension, state: raw } of list) {
    const state = (raw ?? {}) as State
    switch (extension) {
      case 'transferFeeConfig': {
        const older = (state.olderTransferFee ?? {}) as State
        const newer = (state.newerTransferFee ?? {}) as State
        extensions.transferFee = {
          basisPoints: Number(older.transferFeeBasisPoints ?? 0),
          maximumFee: integer(older.maximumFee),
          configAuthority: text(state.transferFeeConfigAuthority),
          newerBasisPoints: Number(newer.transferFeeBasisPoints ?? 0),
          newerEpoch: integer(newer.epoch),
        }
        break
      }
      case 'permanentDelegate':
        extensions.permanentDelegate = text(state.delegate)
        break
      case 'transferHook':
        extensions.transferHook = { programId: text(state.programId), authority: text(state.authority) }
        break
      case 'nonTransferable':
        extensions.nonTransferable = true
        break
      case 'defaultAccountState':
        extensions.defaultAccountState = state.accountState === 'frozen' ? 'frozen' : 'initialized'
        break
      case 'mintCloseAuthority':
        extensions.mintCloseAuthority = text(state.closeAuthority)
        break
      case 'pausableConfig':
        extensions.pausable = { authority: text(state.authority), paused: state.paused === true }
        break
      case 'metadataPointer':
        extensions.metadataPointer = { authority: text(state.authority), metadataAddress: text(state.metadataAddress) }
        break
      case 'tokenMetadata':
        extensions.tokenMetadata = {
          name: text(state.name) ?? '',
          symbol: text(state.symbol) ?? '',
          uri: text(state.uri) ?? '',
          updateAuthority: text(state.updateAuthority),
        }
        break
      default:
        extensions.other.push(extension)
    }
  }
  return extensions
}
