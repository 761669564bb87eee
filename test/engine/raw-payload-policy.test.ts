/**
 * The payload keywords of raw-payload signing (`eth.eip_712`, `eth.eip_7702_authorization`): what a policy
 * sees of a document, and that a payload it cannot read shows nothing.
 */
import { describe, expect, it } from "vitest";
import { rawPayloadPolicyData } from "../../src/domain/raw-payload-policy.js";

const PERMIT2 = {
  types: {
    EIP712Domain: [
      { name: "name", type: "string" },
      { name: "chainId", type: "uint256" },
      { name: "verifyingContract", type: "address" },
    ],
    TokenPermissions: [
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    PermitBatchTransferFrom: [
      { name: "permitted", type: "TokenPermissions[]" },
      { name: "spender", type: "address" },
      { name: "nonce", type: "uint256" },
      { name: "deadline", type: "uint256" },
      { name: "memo", type: "string" },
      { name: "salt", type: "bytes32" },
    ],
  },
  primaryType: "PermitBatchTransferFrom",
  domain: { name: "Permit2", chainId: "0x1", verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
  message: {
    permitted: [{ token: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", amount: "1000000000" }],
    spender: "0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD",
    nonce: 0,
    deadline: 1234567890,
    memo: "Keep THIS case",
    salt: `0x${"AB".repeat(32)}`,
  },
};

describe("raw-payload policy keywords", () => {
  it("shows an EIP-712 document by its types: hex in lowercase, other values as their JSON gave them", () => {
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_EIP712", [JSON.stringify(PERMIT2)])).toEqual({
      eth: {
        eip_712: {
          primary_type: "PermitBatchTransferFrom",
          // Permit2 has no version: absent domain members read as '' (and 0 for chain_id).
          domain: {
            name: "Permit2",
            version: "",
            chain_id: 1n,
            verifying_contract: "0x000000000022d473030f116ddee9f6b43ac78ba3",
          },
          message: {
            permitted: [{ token: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", amount: "1000000000" }],
            spender: "0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad",
            nonce: 0,
            deadline: 1234567890,
            memo: "Keep THIS case",
            salt: `0x${"ab".repeat(32)}`,
          },
        },
      },
    });
  });

  it("shows the EIP-7702 authorization with integer chain id and nonce", () => {
    const payload = JSON.stringify({
      address: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B",
      chainId: 8453,
      nonce: "7",
    });
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", [payload])).toEqual({
      eth: {
        eip_7702_authorization: { address: "0x63c0c19a282a1b52b07dd5a65b58948a07dae32b", chain_id: 8453n, nonce: 7n },
      },
    });
  });

  it("shows nothing for other encodings, malformed payloads, or a batch of several", () => {
    const doc = JSON.stringify(PERMIT2);
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_HEXADECIMAL", ["0xabcd"])).toEqual({});
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_EIP712", ["{not json"])).toEqual({});
    expect(
      rawPayloadPolicyData("PAYLOAD_ENCODING_EIP712", [JSON.stringify({ ...PERMIT2, primaryType: "Nope" })]),
    ).toEqual({});
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", ['{"address":"0x1"}'])).toEqual({});
    expect(rawPayloadPolicyData("PAYLOAD_ENCODING_EIP712", [doc, doc])).toEqual({});
  });
});
