/** The rename control: a token's metadata rewritten, e.g. to impersonate a registered asset. */

import { getTransferSolInstruction } from '@solana-program/system'
import { lamports, type Address } from '@solana/kit'
import { decodeMetadata, encodeMetadataAccount, findMetadataAddress } from '../../src/onchain/metaplex-metadata.ts'
import type { UiExtension } from '../token/extensions.ts'
import { getUpdateTokenMetadataFieldInstruction } from '../token/instructions.ts'
import { trusted as address } from '../world/addresses.ts'
import type { World } from '../world/world.ts'
import { keyOf, landed, mintView, RugRefusal, tokenOf, type RugOutcome } from './chain-view.ts'

/**
 * Renames the token: its Token-2022 metadata extension when it has one (UpdateField, real instructions,
 * the mint topped up first for the rent of a longer name), else its Metaplex metadata account.
 */
export async function renameMetadata(world: World, mint: string, name: string, symbol: string): Promise<RugOutcome> {
  const record = tokenOf(world, mint)
  const view = mintView(world, mint)
  const metadata = view.extensions.find((entry) => entry.extension === 'tokenMetadata')
  const outcome = metadata
    ? await renameToken2022(world, mint, metadata.state, name, symbol)
    : await renameMetaplex(world, mint, name, symbol)
  // Discovery (the token list) reads the world's record: it now says what the chain says.
  record.name = name
  record.symbol = symbol
  return outcome
}

async function renameToken2022(
  world: World,
  mint: string,
  state: Extract<UiExtension, { extension: 'tokenMetadata' }>['state'],
  name: string,
  symbol: string,
): Promise<RugOutcome> {
  const authority = await keyOf(world, state.updateAuthority, 'metadata update authority', mint)
  const before = mintView(world, mint)
  const utf8 = new TextEncoder()
  const grows =
    utf8.encode(name).length -
    utf8.encode(state.name).length +
    utf8.encode(symbol).length -
    utf8.encode(state.symbol).length
  const rent = world.chain.svm.minimumBalanceForRentExemption(BigInt(before.space + Math.max(0, grows)))
  const topUp = rent > before.lamports ? rent - before.lamports : 0n
  const signature = await world.run(authority, [
    ...(topUp > 0n
      ? [getTransferSolInstruction({ source: authority, destination: address(mint), amount: lamports(topUp) })]
      : []),
    getUpdateTokenMetadataFieldInstruction({
      metadata: address(mint),
      updateAuthority: authority,
      field: 'name',
      value: name,
    }),
    getUpdateTokenMetadataFieldInstruction({
      metadata: address(mint),
      updateAuthority: authority,
      field: 'symbol',
      value: symbol,
    }),
  ])
  const after = mintView(world, mint).extensions.find((entry) => entry.extension === 'tokenMetadata') as
    | Extract<UiExtension, { extension: 'tokenMetadata' }>
    | undefined
  return {
    ...landed(world, signature),
    before: { name: state.name, symbol: state.symbol, where: 'token-2022 metadata extension' },
    after: { name: after?.state.name, symbol: after?.state.symbol, where: 'token-2022 metadata extension' },
  }
}

/**
 * The Metaplex Token Metadata program cannot run offline (scenarios write its accounts with setAccount):
 * the update authority signs a real transaction that writes to the metadata account (a lamport transfer
 * into it), and the account's new data is written in the same slot.
 */
async function renameMetaplex(world: World, mint: string, name: string, symbol: string): Promise<RugOutcome> {
  const [pda] = await findMetadataAddress(address(mint))
  const account = world.chain.getAccount(pda)
  const current = account ? decodeMetadata(account.data) : undefined
  if (!account || !current) throw new RugRefusal('NOT_POSSIBLE', `${mint} has no metadata to rename`)
  if (!current.isMutable) throw new RugRefusal('NOT_POSSIBLE', `the metadata of ${mint} is immutable`)
  const authority = await keyOf(world, current.updateAuthority, 'metadata update authority', mint)
  const data = encodeMetadataAccount({ ...current, data: { ...current.data, name, symbol } })
  const rent = world.chain.svm.minimumBalanceForRentExemption(BigInt(data.length))
  world.chain.setAccount({ ...account, data, lamports: lamports(BigInt(account.lamports)) })
  const topUp = rent > BigInt(account.lamports) ? rent - BigInt(account.lamports) : 1n
  const signature = await world.run(authority, [
    getTransferSolInstruction({ source: authority, destination: pda as Address, amount: lamports(topUp) }),
  ])
  return {
    ...landed(world, signature),
    before: { name: current.data.name, symbol: current.data.symbol, where: `metaplex metadata ${pda}` },
    after: { name, symbol, where: `metaplex metadata ${pda}` },
    stateWritten: 'the metadata account data (Metaplex Token Metadata cannot run offline)',
  }
}
