/**
 * Encrypts small secrets (channel credentials) for storage. `context` is bound to the ciphertext (KMS
 * encryption context, AES-GCM additional data): a ciphertext copied onto another item does not open.
 */
export interface SecretBox {
  seal(plaintext: string, context: Record<string, string>): Promise<string>;
  open(sealed: string, context: Record<string, string>): Promise<string>;
}
