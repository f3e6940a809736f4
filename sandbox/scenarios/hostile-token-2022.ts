import {
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToCheckedInstruction,
  getThawAccountInstruction,
} from '@solana-program/token'
import { address } from '@solana/kit'
import {
  getInitializeDefaultAccountStateInstruction,
  getInitializeMintCloseAuthorityInstruction,
  getInitializePermanentDelegateInstruction,
  getInitializeTransferFeeConfigInstruction,
  getInitializeTransferHookInstruction,
  TOKEN_2022_PROGRAM_ADDRESS,
} from '../token/instructions.ts'
import { mintAddress, token2022WithMetadata, units, type Scenario } from './kit.ts'
import { DAY, HOUR } from './timeline.ts'

const NAME = 'Trap Door'
const SYMBOL = 'TRAP'
const URI = 'https://sandbox.solsentry.invalid/trap.json'
/** 10% on every transfer, with no cap, and the fee authority kept so it can change. */
const TRANSFER_FEE_BPS = 1_000
const NO_FEE_CAP = 0xffff_ffff_ffff_ffffn
/** A transfer-hook program id where no program is deployed: every transfer fails. */
const HOOK_PROGRAM = 'HooKAbsentProgram11111111111111111111111111'
const HOLDERS = 10

export const hostileToken2022: Scenario = {
  name: 'hostile-token-2022',
  title: 'Token-2022 mint built to trap holders',
  description:
    "A Token-2022 mint with a permanent delegate (the issuer can move anyone's tokens), a 10% transfer fee whose authority is kept, a transfer hook to a program that does not exist (no transfer can succeed), accounts frozen by default, and a mint close authority. Holders were minted to directly; nothing can be sold.",
  traits: [
    'token_2022',
    'permanent_delegate',
    'transfer_fee_high',
    'transfer_fee_mutable',
    'transfer_hook',
    'default_account_state_frozen',
    'mint_close_authority',
    'is_honeypot',
    'freeze_authority_live',
  ],
  async schedule(ctx) {
    const { world, timeline, now } = ctx
    const mint = await mintAddress(world, 'hostile-token-2022')
    const created = now - 4 * DAY
    timeline.at(created, 'hostile-token-2022 mint', async () => {
      const dev = await world.wallet('hostile:dev', 20)
      const metadata = { name: NAME, symbol: SYMBOL, uri: URI }
      const extensions = [
        'permanentDelegate',
        'transferFeeConfig',
        'transferHook',
        'defaultAccountState',
        'mintCloseAuthority',
      ] as const
      await world.createMint(
        {
          key: 'hostile-token-2022',
          name: NAME,
          symbol: SYMBOL,
          decimals: 6,
          mintAuthority: dev,
          freezeAuthority: dev.address,
          token2022: token2022WithMetadata(extensions, metadata, dev, (mint) => [
            getInitializePermanentDelegateInstruction({ mint, delegate: dev.address }),
            getInitializeTransferFeeConfigInstruction({
              mint,
              transferFeeConfigAuthority: dev.address,
              withdrawWithheldAuthority: dev.address,
              transferFeeBasisPoints: TRANSFER_FEE_BPS,
              maximumFee: NO_FEE_CAP,
            }),
            getInitializeTransferHookInstruction({ mint, authority: dev.address, programId: address(HOOK_PROGRAM) }),
            getInitializeDefaultAccountStateInstruction({ mint, state: 'frozen' }),
            getInitializeMintCloseAuthorityInstruction({ mint, closeAuthority: dev.address }),
          ]),
        },
        dev,
      )
    })
    // New accounts start frozen: the issuer thaws each holder's account, then mints to it directly
    // (minting does not run the transfer hook; transferring would).
    for (let i = 0; i < HOLDERS; i++)
      timeline.at(created + HOUR + i * 20 * 60, 'hostile-token-2022 holder', async () => {
        const dev = await world.signer('hostile:dev')
        const holder = await world.signer(`hostile:holder-${i}`)
        const account = await world.ata(mint, holder.address)
        await world.run(dev, [
          getCreateAssociatedTokenIdempotentInstruction({
            payer: dev,
            ata: account,
            owner: holder.address,
            mint: address(mint),
            tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
          }),
          getThawAccountInstruction(
            { account, mint: address(mint), owner: dev },
            { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
          ),
          getMintToCheckedInstruction(
            {
              mint: address(mint),
              token: account,
              mintAuthority: dev,
              amount: units(5_000_000 + i * 1_000_000, 6),
              decimals: 6,
            },
            { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
          ),
        ])
      })
    return { mint }
  },
}
