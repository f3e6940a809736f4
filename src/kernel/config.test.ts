import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ConfigError, MAINNET_UPSTREAMS, readConfig } from './config.ts'
import { loadConfig } from '../settings.ts'

const MAINNET = {
  SOLSENTRY_PROFILE: 'mainnet',
  PUBLIC_URL: 'https://solsentry.example',
  FACILITATOR_URL: 'https://facilitator.example',
  PAY_TO_SOLANA: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263',
  PAY_TO_BASE: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
}

function configFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'solsentry-config-')), 'config.json')
  writeFileSync(path, content)
  return path
}

describe('loadConfig', () => {
  test('defaults describe the local sandbox service', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({
      PORT: 8402,
      HOST: '127.0.0.1',
      SOLSENTRY_PROFILE: 'sandbox',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
    })
    expect(config.SOLANA_RPC_URL).toBeUndefined()
  })

  test('converts environment strings to typed values', () => {
    const config = loadConfig({ PORT: '9000', TRUST_PROXY: 'true', RATE_LIMIT_SCANNER_PER_MINUTE: '1.5' })
    expect(config.PORT).toBe(9000)
    expect(config.TRUST_PROXY).toBe(true)
    expect(config.RATE_LIMIT_SCANNER_PER_MINUTE).toBe(1.5)
  })

  test('an empty variable counts as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(8402)
  })

  test.each([
    [{ PORT: 'abc' }, 'PORT: must be an integer from 0 to 65535 (got "abc")'],
    [{ PORT: '70000' }, 'PORT: must be an integer from 0 to 65535'],
    [{ SOLSENTRY_PROFILE: 'prod' }, 'SOLSENTRY_PROFILE: must be sandbox or mainnet (got "prod")'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be fatal, error, warn, info, debug, trace or silent'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY: must be true or false (got "yes")'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL: must be a redis:// or rediss:// URL'],
    [{ SOLANA_RPC_URL: 'ftp://x' }, 'SOLANA_RPC_URL: must be an http(s) URL'],
    [{ PAY_TO_BASE: '0x12' }, 'PAY_TO_BASE: must be a 0x-prefixed 20-byte hex address'],
    [{ PAY_TO_SOLANA: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' }, 'PAY_TO_SOLANA: EVM addresses are not supported'],
    [{ RATE_LIMIT_SCANNER_PER_MINUTE: '0' }, 'RATE_LIMIT_SCANNER_PER_MINUTE: must be a positive number'],
    [
      { FACILITATOR_HEADERS: 'Bearer abc' },
      'FACILITATOR_HEADERS: must be a JSON object of header names to string values',
    ],
    [
      { FACILITATOR_HEADERS: '{"x-api-key": 42}' },
      'FACILITATOR_HEADERS: must be a JSON object of header names to string values',
    ],
    [{ SOLANA_PAYMENT_NETWORK: 'solana:localnet' }, 'SOLANA_PAYMENT_NETWORK: must be a CAIP-2 Solana chain id'],
    [
      { SOLANA_PAYMENT_ASSET: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      'SOLANA_PAYMENT_ASSET: EVM addresses are not supported',
    ],
    [{ SOLSENTRY_PROFILE: 'mainnet' }, 'PUBLIC_URL: required when SOLSENTRY_PROFILE=mainnet'],
    [{ ...MAINNET, PUBLIC_URL: '' }, 'PUBLIC_URL: required when SOLSENTRY_PROFILE=mainnet'],
    [{ ...MAINNET, FACILITATOR_URL: '' }, 'FACILITATOR_URL: required when SOLSENTRY_PROFILE=mainnet'],
    [
      { FACILITATOR_VERIFY_BUDGET_MS: '10000' },
      'FACILITATOR_VERIFY_BUDGET_MS: must be milliseconds, an integer from 100 to 4000',
    ],
    [
      { ...MAINNET, PAY_TO_BASE: '', PAY_TO_SOLANA: '' },
      'PAY_TO_SOLANA or PAY_TO_BASE: set at least one, the address that receives USDC on that chain',
    ],
    [
      { FACILITATOR_URL: 'https://facilitator.example' },
      'PAY_TO_SOLANA or PAY_TO_BASE: set at least one, the address that receives USDC on that chain',
    ],
    [
      { ACP_SIGNER_PRIVATE_KEY: `0x${'1'.repeat(64)}` },
      'ACP_SESSION_ENTITY_KEY_ID: required with ACP_SIGNER_PRIVATE_KEY (the ACP seller needs all three)',
    ],
    [
      { ...MAINNET, DEMO_WALLET_KEYPAIR: '/tmp/demo.json' },
      'DEMO_WALLET_KEYPAIR: refused when SOLSENTRY_PROFILE=mainnet (a demo wallet pays with real money)',
    ],
  ])('rejects %p with one line naming the variable', (env, message) => {
    let thrown: unknown
    try {
      loadConfig(env)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(ConfigError)
    expect((thrown as Error).message).toContain(message)
    expect((thrown as Error).message).not.toContain('\n')
  })

  test('either payee alone is enough: a seller on one chain sets that chain only', () => {
    expect(loadConfig({ ...MAINNET, PAY_TO_BASE: '' })).toMatchObject({ PAY_TO_SOLANA: MAINNET.PAY_TO_SOLANA })
    expect(loadConfig({ ...MAINNET, PAY_TO_BASE: '' }).PAY_TO_BASE).toBeUndefined()
    expect(loadConfig({ ...MAINNET, PAY_TO_SOLANA: '' })).toMatchObject({ PAY_TO_BASE: MAINNET.PAY_TO_BASE })
    expect(loadConfig({ ...MAINNET, PAY_TO_SOLANA: '' }).PAY_TO_SOLANA).toBeUndefined()
  })

  test('mainnet fills in the public upstreams', () => {
    expect(loadConfig(MAINNET)).toMatchObject(MAINNET_UPSTREAMS)
  })

  test('reads a JSON file named by SOLSENTRY_CONFIG; the environment wins', () => {
    const path = configFile(JSON.stringify({ PORT: 9100, HOST: '0.0.0.0', LOG_LEVEL: 'debug' }))
    const config = loadConfig({ SOLSENTRY_CONFIG: path, LOG_LEVEL: 'warn' })
    expect(config.PORT).toBe(9100)
    expect(config.HOST).toBe('0.0.0.0')
    expect(config.LOG_LEVEL).toBe('warn')
  })

  test.each([
    ['{"PORT": 1', 'is not valid JSON'],
    ['[1, 2]', 'must hold a JSON object of settings'],
    ['{"PROT": 1}', 'names an unknown setting PROT'],
    ['{"PORT": "x"}', 'PORT: must be an integer'],
  ])('rejects the config file %s', (content, message) => {
    expect(() => loadConfig({ SOLSENTRY_CONFIG: configFile(content) })).toThrow(message)
  })

  test('names a config file that cannot be read', () => {
    expect(() => loadConfig({ SOLSENTRY_CONFIG: '/nonexistent/solsentry.json' })).toThrow(
      'SOLSENTRY_CONFIG: cannot read /nonexistent/solsentry.json (ENOENT)',
    )
  })
  test("the features' own checks (src/settings.ts), in order: a reference file, a setting's partner, a key, an address", () => {
    const bad = { ISSUER_REGISTRY: '/nonexistent/issuers.json', LLM_URL: 'http://127.0.0.1:1/v1' }
    // The reference file first, as before the checks left the kernel.
    expect(() => loadConfig(bad)).toThrow(/^ISSUER_REGISTRY: /)
    expect(() => loadConfig({ LLM_URL: 'http://127.0.0.1:1/v1' })).toThrow(
      'LLM_MODEL: required with LLM_URL (the model the /news routes ask)',
    )
    expect(() => loadConfig({ CDP_API_KEY_ID: 'id' })).toThrow('CDP_API_KEY_SECRET: required with CDP_API_KEY_ID')
    // The partner before the key's own form.
    expect(() => loadConfig({ CDP_API_KEY_SECRET: 'not a key' })).toThrow(
      'CDP_API_KEY_ID: required with CDP_API_KEY_SECRET',
    )
    expect(() => loadConfig({ CDP_API_KEY_ID: 'id', CDP_API_KEY_SECRET: 'not a key' })).toThrow(/^CDP_API_KEY_SECRET: /)
    expect(() => loadConfig({ PAY_TO_SOLANA: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' })).toThrow(
      /^PAY_TO_SOLANA: /,
    )
    // The kernel's loader alone knows none of them.
    expect(readConfig(bad).ISSUER_REGISTRY).toBe('/nonexistent/issuers.json')
  })
})

describe('values an env file pastes badly', () => {
  test('PUBLIC_URL is an origin: a trailing slash is dropped, a path or an inline comment refused', () => {
    expect(readConfig({ PUBLIC_URL: 'https://scan.example.com/' }).PUBLIC_URL).toBe('https://scan.example.com')
    expect(() => readConfig({ PUBLIC_URL: 'https://scan.example.com   # what callers pay for' })).toThrow(
      'PUBLIC_URL: must be an origin',
    )
    expect(() => readConfig({ PUBLIC_URL: 'https://scan.example.com/api' })).toThrow('PUBLIC_URL')
  })

  test('no URL or HOST takes a space: two settings on one line, or a comment, stop the start', () => {
    expect(() => readConfig({ HOST: '127.0.0.1 PORT=8402 TRUST_PROXY=true' })).toThrow('HOST: must be')
    expect(() => readConfig({ SOLANA_RPC_URL: 'https://rpc.example.com  # keyed' })).toThrow('SOLANA_RPC_URL')
  })
})
