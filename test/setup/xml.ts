import { validateXML } from 'xmllint-wasm';

/**
 * What libxml2's xmllint (as WebAssembly: no native tool, no network) finds wrong with a document:
 * nothing when it is well-formed XML 1.0.
 */
export async function xmllintErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: [{ fileName: 'document.xml', contents: xml }], normalization: 'c14n' });
  return result.errors.map((e) => e.message);
}
