// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Multicall3's `tryAggregate`, for the sandbox's EVM chain
/// @notice The x402 EVM facilitator reads a failed payment's balance, token name, version and
/// authorization state in one call to Multicall3 at its canonical address, which a fresh anvil
/// chain lacks. The sandbox places this runtime code there (anvil_setCode); it behaves as
/// Multicall3's function of the same signature.
contract Multicall {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, data);
        }
    }
}
