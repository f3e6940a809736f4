/**
 * The browser's wallets: Solana wallets that register through the wallet standard
 * (`@wallet-standard/app`), and EVM wallets that announce themselves by EIP-6963. Connecting one gives
 * what the official x402 schemes sign with: a kit transaction signer, or an EVM typed-data signer.
 */
import {
  type Address,
  address,
  getTransactionDecoder,
  getTransactionEncoder,
  type SignatureDictionary,
  type Transaction,
  type TransactionPartialSigner,
} from '@solana/kit'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { createWalletClient, custom, type EIP1193Provider } from 'viem'

export type Discovered =
  | { kind: 'solana'; name: string; wallet: Wallet }
  | { kind: 'evm'; name: string; provider: EIP1193Provider }

const SIGN_TRANSACTION = 'solana:signTransaction'
const CONNECT = 'standard:connect'

/** Calls `onChange` with every wallet found so far, now and whenever one appears. */
export function discoverWallets(onChange: (wallets: Discovered[]) => void): void {
  const evm: Discovered[] = []
  const solana = () =>
    getWallets()
      .get()
      .filter((wallet) => SIGN_TRANSACTION in wallet.features && CONNECT in wallet.features)
      .map((wallet): Discovered => ({ kind: 'solana', name: wallet.name, wallet }))
  const changed = () => onChange([...solana(), ...evm])
  getWallets().on('register', changed)
  window.addEventListener('eip6963:announceProvider', ((
    event: CustomEvent<{ info: { name: string; uuid: string }; provider: EIP1193Provider }>,
  ) => {
    if (evm.some((found) => found.kind === 'evm' && found.provider === event.detail.provider)) return
    evm.push({ kind: 'evm', name: event.detail.info.name, provider: event.detail.provider })
    changed()
  }) as EventListener)
  window.dispatchEvent(new Event('eip6963:requestProvider'))
  changed()
}

type ConnectFeature = { connect(): Promise<{ accounts: readonly WalletAccount[] }> }
type SignFeature = {
  signTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array }[]
  ): Promise<{ signedTransaction: Uint8Array }[]>
}

/** Connects a wallet-standard Solana wallet: a kit signer whose signatures the wallet makes. */
export async function connectSolana(found: Extract<Discovered, { kind: 'solana' }>): Promise<TransactionPartialSigner> {
  const { accounts } = await (found.wallet.features[CONNECT] as ConnectFeature).connect()
  const account = accounts[0]
  if (!account) throw new Error(`${found.name} shared no account`)
  const signer: Address = address(account.address)
  const sign = found.wallet.features[SIGN_TRANSACTION] as SignFeature
  return {
    address: signer,
    async signTransactions(transactions: readonly Transaction[]): Promise<SignatureDictionary[]> {
      const signed = await sign.signTransaction(
        ...transactions.map((transaction) => ({
          account,
          transaction: new Uint8Array(getTransactionEncoder().encode(transaction)),
        })),
      )
      return signed.map(({ signedTransaction }) => {
        const decoded = getTransactionDecoder().decode(signedTransaction)
        const signature = decoded.signatures[signer]
        if (!signature) throw new Error(`${found.name} did not sign`)
        return { [signer]: signature } as SignatureDictionary
      })
    },
  }
}

/** Connects an EIP-6963 wallet: the typed-data signer the EVM scheme pays with (EIP-3009). */
export async function connectEvm(found: Extract<Discovered, { kind: 'evm' }>) {
  const client = createWalletClient({ transport: custom(found.provider) })
  const [account] = await client.requestAddresses()
  if (!account) throw new Error(`${found.name} shared no account`)
  return {
    address: account,
    signTypedData: (message: {
      domain: Record<string, unknown>
      types: Record<string, unknown>
      primaryType: string
      message: Record<string, unknown>
    }) => client.signTypedData({ account, ...message } as Parameters<typeof client.signTypedData>[0]),
  }
}

const SIGN_MESSAGE = 'solana:signMessage'
type SignMessageFeature = {
  signMessage(...inputs: { account: WalletAccount; message: Uint8Array }[]): Promise<{ signature: Uint8Array }[]>
}

/**
 * A wallet-standard Solana wallet as a message signer (its `solana:signMessage`), for a sign-in-with-x
 * message; null when the wallet cannot sign messages.
 */
export async function solanaMessageSigner(
  found: Extract<Discovered, { kind: 'solana' }>,
): Promise<{ publicKey: string; signMessage(message: Uint8Array): Promise<Uint8Array> } | null> {
  const feature = found.wallet.features[SIGN_MESSAGE] as SignMessageFeature | undefined
  if (!feature) return null
  const { accounts } = await (found.wallet.features[CONNECT] as ConnectFeature).connect()
  const account = accounts[0]
  if (!account) throw new Error(`${found.name} shared no account`)
  return {
    publicKey: account.address,
    async signMessage(message) {
      const [signed] = await feature.signMessage({ account, message })
      if (!signed) throw new Error(`${found.name} did not sign`)
      return signed.signature
    },
  }
}

/** An EIP-6963 wallet as a message signer (EIP-191 personal_sign), for a sign-in-with-x message. */
export async function evmMessageSigner(found: Extract<Discovered, { kind: 'evm' }>) {
  const client = createWalletClient({ transport: custom(found.provider) })
  const [account] = await client.requestAddresses()
  if (!account) throw new Error(`${found.name} shared no account`)
  return {
    address: account as string,
    signMessage: ({ message }: { message: string }) => client.signMessage({ account, message }),
  }
}
