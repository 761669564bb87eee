/**
 * A wallet app as a browser bundle: `@turnkey/core`'s `TurnkeyClient` with its browser defaults (passkeys
 * through `navigator.credentials`, session keys in IndexedDB, sessions in localStorage), pointed at a custodian
 * dev server and its auth proxy. The tests drive it through `window.custodianApp`, as buttons would; its state
 * shows in `body[data-state]` so a test waits for the page rather than for time.
 */
import { OtpType, TurnkeyClient } from "@turnkey/core";
import { encryptOtpCodeToBundle, verifyOtpVerificationToken, verifySessionJwtSignature } from "@turnkey/crypto";

/** What the page is served with, as `config.json` next to it. */
export interface AppConfig {
  apiBaseUrl: string;
  authProxyUrl: string;
  /** Core refuses to call a proxy without one; the dev server's proxy takes any. */
  authProxyConfigId: string;
  organizationId: string;
  /** The dev server's bundle signer key: OTP codes are sealed to target bundles it signs. */
  signerPublicKey: string;
  /** The dev server's token signer key: verification tokens and session JWTs are signed with it. */
  tokenSignerPublicKey: string;
  /** The OIDC issuer's authorization endpoint and this app's client id there. */
  oidc: { authorizeUrl: string; clientId: string };
}

/** The parts of a session JWT the tests look at. */
export interface SessionView {
  sessionToken: string;
  organizationId: string;
  userId: string;
  publicKey: string;
  /** Whether the JWT's signature checks against the dev server's token signer key. */
  signedByTokenSigner: boolean;
}

/** A key of core's IndexedDB key store, as the page sees it. */
export interface StoredKey {
  publicKey: string;
  type: string;
  extractable: boolean;
}

const STAMPER_DB = "TurnkeyStamperDB";
const STAMPER_STORE = "KeyStore";
/** Where the OAuth flow keeps the key its nonce commits to while the browser visits the issuer. */
const OAUTH_KEY = "custodian-app:oauth-public-key";

function setState(state: string, detail = state): void {
  document.body.dataset.state = state;
  (document.getElementById("status") as HTMLElement).textContent = detail;
}

function decodeJwtPayload(token: string): Record<string, unknown> {
  const payload = (token.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/");
  return JSON.parse(atob(payload)) as Record<string, unknown>;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function createApp(config: AppConfig, client: TurnkeyClient) {
  const sessionView = async (sessionToken: string): Promise<SessionView> => {
    const claims = decodeJwtPayload(sessionToken);
    return {
      sessionToken,
      organizationId: claims.organization_id as string,
      userId: claims.user_id as string,
      publicKey: claims.public_key as string,
      signedByTokenSigner: await verifySessionJwtSignature(sessionToken, config.tokenSignerPublicKey),
    };
  };

  /** The one Ethereum account of the wallet named `walletName`, created on first use. */
  const ethereumAccount = async (walletName: string) => {
    const existing = (await client.fetchWallets()).find((wallet) => wallet.walletName === walletName);
    const walletId =
      existing?.walletId ?? (await client.createWallet({ walletName, accounts: ["ADDRESS_FORMAT_ETHEREUM"] }));
    const wallet = (await client.fetchWallets()).find((candidate) => candidate.walletId === walletId);
    const account = wallet?.accounts.find((candidate) => candidate.addressFormat === "ADDRESS_FORMAT_ETHEREUM");
    if (!account) throw new Error(`wallet ${walletName} has no Ethereum account`);
    return account;
  };

  return {
    async signUpWithPasskey(userName: string) {
      const { sessionToken, credentialId } = await client.signUpWithPasskey({
        passkeyDisplayName: `${userName} passkey`,
        createSubOrgParams: { userName },
      });
      setState("signed-in");
      return { ...(await sessionView(sessionToken)), credentialId };
    },

    async loginWithPasskey() {
      const { sessionToken, credentialId } = await client.loginWithPasskey();
      setState("signed-in");
      return { ...(await sessionView(sessionToken)), credentialId };
    },

    async logout() {
      await client.logout();
      setState("signed-out");
    },

    /** The active session, read back from core's storage (it survives a reload). */
    async session() {
      const session = await client.getSession();
      return session ? sessionView(session.token as string) : undefined;
    },

    async fetchUser() {
      const user = await client.fetchUser();
      return { userId: user.userId, userName: user.userName, userEmail: user.userEmail ?? "" };
    },

    /** The keys in core's IndexedDB key store, read as any script of the page could. */
    async storedKeys(): Promise<StoredKey[]> {
      const db = await new Promise<IDBDatabase | undefined>((resolve, reject) => {
        const request = indexedDB.open(STAMPER_DB);
        // No store yet: creating an empty database here would keep core from creating its own.
        request.onupgradeneeded = () => {
          request.transaction?.abort();
          resolve(undefined);
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => (request.error?.name === "AbortError" ? resolve(undefined) : reject(request.error));
      });
      if (!db) return [];
      try {
        const store = db.transaction(STAMPER_STORE, "readonly").objectStore(STAMPER_STORE);
        const [keys, values] = await Promise.all(
          [store.getAllKeys(), store.getAll()].map(
            (request) =>
              new Promise<unknown[]>((resolve, reject) => {
                request.onsuccess = () => resolve(request.result as unknown[]);
                request.onerror = () => reject(request.error);
              }),
          ),
        );
        return (keys ?? []).map((publicKey, index) => {
          const key = (values ?? [])[index] as CryptoKey;
          return { publicKey: publicKey as string, type: key.type, extractable: key.extractable };
        });
      } finally {
        db.close();
      }
    },

    /** Signs `message` (EIP-191) with the wallet's Ethereum account, stamped by the session key. */
    async signMessage(walletName: string, message: string) {
      const account = await ethereumAccount(walletName);
      const { r, s, v } = await client.signMessage({ message, walletAccount: account, addEthereumPrefix: true });
      return { address: account.address, r, s, v };
    },

    /** Signs a serialized unsigned Ethereum transaction with the wallet's account. */
    async signTransaction(walletName: string, unsignedTransaction: string) {
      const account = await ethereumAccount(walletName);
      const signedTransaction = await client.signTransaction({
        walletAccount: account,
        unsignedTransaction,
        transactionType: "TRANSACTION_TYPE_ETHEREUM",
      });
      return { address: account.address, signedTransaction };
    },

    /**
     * Starts an OAuth log-in: a session key is made first, since the ID token's nonce must commit to it, and
     * the browser goes to the issuer, which sends it back here with the token in the fragment.
     */
    async beginOauth() {
      const publicKey = await client.createApiKeyPair();
      sessionStorage.setItem(OAUTH_KEY, publicKey);
      const url = new URL(config.oidc.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: config.oidc.clientId,
        redirect_uri: `${location.origin}${location.pathname}`,
        response_type: "id_token",
        scope: "openid email",
        nonce: await sha256Hex(publicKey),
      }).toString();
      setState("redirecting");
      location.assign(url.toString());
    },

    /** Completes the sign-up or log-in the issuer's answer in the fragment carries. */
    async completeOauth() {
      const oidcToken = new URLSearchParams(location.hash.slice(1)).get("id_token");
      const publicKey = sessionStorage.getItem(OAUTH_KEY);
      if (!oidcToken || !publicKey) throw new Error("the page was not loaded with an OAuth answer");
      history.replaceState(null, "", location.pathname);
      sessionStorage.removeItem(OAUTH_KEY);
      const { sessionToken, action } = await client.completeOauth({
        oidcToken,
        publicKey,
        providerName: "local issuer",
      });
      document.body.dataset.action = action;
      setState("signed-in");
      return { ...(await sessionView(sessionToken)), action: action as string };
    },

    /** Sends a one-time code to `email` through the auth proxy. */
    async initEmailOtp(email: string) {
      return client.initOtp({ otpType: OtpType.Email, contact: email });
    },

    /**
     * Core's own `completeOtp`: it seals the code to the target bundle only after checking the bundle against
     * the hosted service's signer key, which it pins.
     */
    async completeOtpAsShipped(params: {
      otpId: string;
      otpCode: string;
      otpEncryptionTargetBundle: string;
      email: string;
    }) {
      return client.completeOtp({ ...params, contact: params.email, otpType: OtpType.Email });
    },

    /**
     * The documented workaround: seal the code with `@turnkey/crypto` naming the dev server's signer key, verify
     * it through core's HTTP client, check the verification token with the token signer key, then let core's
     * `signUpWithOtp` or `loginWithOtp` finish.
     */
    async completeEmailOtp(params: {
      otpId: string;
      otpCode: string;
      otpEncryptionTargetBundle: string;
      email: string;
    }) {
      const publicKey = await client.createApiKeyPair();
      const encryptedOtpBundle = await encryptOtpCodeToBundle(
        params.otpCode,
        params.otpEncryptionTargetBundle,
        publicKey,
        config.signerPublicKey,
      );
      const { verificationToken } = await client.httpClient.proxyVerifyOtpV2({
        otpId: params.otpId,
        encryptedOtpBundle,
      });
      const claims = await verifyOtpVerificationToken(verificationToken, config.tokenSignerPublicKey);
      const account = await client.httpClient.proxyGetAccount({
        filterType: "EMAIL",
        filterValue: params.email,
        verificationToken,
      });
      const { sessionToken } = account.organizationId
        ? await client.loginWithOtp({ verificationToken, organizationId: account.organizationId })
        : await client.signUpWithOtp({ verificationToken, contact: params.email, otpType: OtpType.Email });
      setState("signed-in");
      return {
        ...(await sessionView(sessionToken)),
        action: account.organizationId ? "LOGIN" : "SIGNUP",
        verifiedContact: claims.contact,
        verificationPublicKey: claims.public_key ?? "",
      };
    },
  };
}

/** Error messages with their causes: `TurnkeyError` keeps the server's answer in `cause`. */
function explained(error: unknown): Error {
  const messages: string[] = [];
  for (let cause = error; cause !== undefined && messages.length < 5; ) {
    messages.push(cause instanceof Error ? cause.message : String(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return new Error(messages.join(": "));
}

/** The app's methods, each throwing its error with the causes spelled out (a test sees only the message). */
function withExplainedErrors<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  return Object.fromEntries(
    Object.entries(methods).map(([name, method]) => [
      name,
      (...args: never[]) => method(...args).catch((error: unknown) => Promise.reject(explained(error))),
    ]),
  ) as T;
}

export type App = ReturnType<typeof createApp>;

declare global {
  interface Window {
    custodianApp?: App;
  }
}

async function start(): Promise<void> {
  const config = (await (await fetch("config.json")).json()) as AppConfig;
  const client = new TurnkeyClient({
    apiBaseUrl: config.apiBaseUrl,
    authProxyUrl: config.authProxyUrl,
    authProxyConfigId: config.authProxyConfigId,
    organizationId: config.organizationId,
    passkeyConfig: { rpId: location.hostname, timeout: 30_000 },
  });
  await client.init();
  const app = withExplainedErrors(createApp(config, client));
  window.custodianApp = app;
  (document.getElementById("oauth") as HTMLButtonElement).onclick = () => {
    app.beginOauth().catch((error: unknown) => setState("failed", String(error)));
  };
  setState("ready");
  // Back from the issuer: the fragment carries its answer.
  if (location.hash.includes("id_token=")) await app.completeOauth();
}

start().catch((error: unknown) => setState("failed", String(explained(error))));
