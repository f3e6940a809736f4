import type { FailedTransactionMetadata } from 'litesvm'

/** A transaction error as the JSON-RPC serialises it: `"BlockhashNotFound"` or `{ "InstructionError": [0, { "Custom": 1 }] }`. */
export type TransactionErrorJson = string | Record<string, unknown>

// litesvm's error enums are TypeScript `const enum`s, absent at run time: these tables restate
// their numbering (litesvm 1.5.0 internal.d.ts), which follows solana-sdk's TransactionError and
// InstructionError variant order.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const

/** Converts litesvm's error object to the JSON the Solana RPC returns in `err`. */
export function toTransactionErrorJson(failed: FailedTransactionMetadata): TransactionErrorJson {
  return convertTransactionError(failed.err())
}

function convertTransactionError(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`
  const value = err as { index?: number; accountIndex?: number; err?: () => unknown; constructor: { name: string } }
  const kind = value.constructor.name.replace(/^TransactionError/, '')
  if (kind === 'InstructionError' && value.err)
    return { InstructionError: [value.index, convertInstructionError(value.err())] }
  if (kind === 'DuplicateInstruction') return { DuplicateInstruction: value.index }
  if (kind === 'InsufficientFundsForRent') return { InsufficientFundsForRent: { account_index: value.accountIndex } }
  if (kind === 'ProgramExecutionTemporarilyRestricted')
    return { ProgramExecutionTemporarilyRestricted: { account_index: value.accountIndex } }
  return kind
}

function convertInstructionError(err: unknown): TransactionErrorJson {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? `InstructionError${err}`
  const value = err as { code?: number; msg?: string; constructor: { name: string } }
  if (value.code !== undefined) return { Custom: value.code }
  if (value.msg !== undefined) return { BorshIoError: value.msg }
  return value.constructor.name.replace(/^InstructionError/, '')
}
