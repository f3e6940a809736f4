/**
 * Compiles the sandbox's EVM contracts with solc-js (offline) into `artifacts.json`, which the
 * sandbox deploys from, so booting it needs no compiler. Run after editing a contract:
 * `bun sandbox/evm/compile.ts`; a test fails while the artifact is older than its sources.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const DIR = import.meta.dir
export const ARTIFACTS_PATH = join(DIR, 'artifacts.json')
const SOURCES = ['SandboxUSDC.sol', 'Multicall.sol'] as const

export interface ContractArtifact {
  abi: readonly Record<string, unknown>[]
  /** Creation code (deploy with it). */
  bytecode: `0x${string}`
  /** Runtime code (place with anvil_setCode). */
  deployedBytecode: `0x${string}`
}

export interface Artifacts {
  compiler: string
  /** sha256 of the sources the artifact was compiled from. */
  sourcesSha256: string
  contracts: Record<'SandboxUSDC' | 'Multicall', ContractArtifact>
}

function readSources(): Record<string, { content: string }> {
  return Object.fromEntries(
    SOURCES.map((file) => [file, { content: readFileSync(join(DIR, 'contracts', file), 'utf8') }]),
  )
}

export function sourcesSha256(): string {
  const hash = createHash('sha256')
  for (const [file, { content }] of Object.entries(readSources())) hash.update(`${file}\0${content}\0`)
  return hash.digest('hex')
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<
    string,
    Record<
      string,
      { abi: ContractArtifact['abi']; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

/** Compiles the sources with the installed solc-js; throws with solc's messages on an error. */
export async function compileContracts(): Promise<Artifacts> {
  const solc = (await import('solc')).default as { compile(input: string): string; version(): string }
  const input = {
    language: 'Solidity',
    sources: readSources(),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((error) => error.formattedMessage).join('\n'))
  const artifact = (file: string, name: string): ContractArtifact => {
    const contract = output.contracts[file]?.[name]
    if (!contract) throw new Error(`solc produced no ${name} in ${file}`)
    return {
      abi: contract.abi,
      bytecode: `0x${contract.evm.bytecode.object}`,
      deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
    }
  }
  return {
    compiler: `solc ${solc.version()}`,
    sourcesSha256: sourcesSha256(),
    contracts: {
      SandboxUSDC: artifact('SandboxUSDC.sol', 'SandboxUSDC'),
      Multicall: artifact('Multicall.sol', 'Multicall'),
    },
  }
}

export function readArtifacts(): Artifacts {
  return JSON.parse(readFileSync(ARTIFACTS_PATH, 'utf8')) as Artifacts
}

if (import.meta.main) {
  const artifacts = await compileContracts()
  writeFileSync(ARTIFACTS_PATH, `${JSON.stringify(artifacts, null, 2)}\n`)
  console.log(`${ARTIFACTS_PATH}: ${artifacts.compiler}, sources ${artifacts.sourcesSha256.slice(0, 12)}`)
}
