import { readFileSync } from 'node:fs';
import { validateXML } from 'xmllint-wasm';

// sitemaps.org's schemas, committed so that the tests need no network.
const SCHEMAS = {
  urlset: readFileSync(new URL('../fixtures/sitemap.xsd', import.meta.url), 'utf8'),
  sitemapindex: readFileSync(new URL('../fixtures/siteindex.xsd', import.meta.url), 'utf8'),
};

/**
 * What libxml2's xmllint (as WebAssembly: no native tool, no network) finds wrong with a document:
 * nothing when it is well-formed XML 1.0 and, when a schema is named, valid against sitemaps.org's
 * sitemap (`urlset`) or sitemap index (`sitemapindex`) schema.
 */
export async function xmllintErrors(xml: string, schema?: keyof typeof SCHEMAS): Promise<string[]> {
  const document = { xml: [{ fileName: 'document.xml', contents: xml }] };
  // Sitemaps reach 50,000 URLs (about 6 MB): room beyond the default 32 MiB.
  const result = await validateXML(schema ? { ...document, schema: [SCHEMAS[schema]], maxMemoryPages: 4096 } : { ...document, normalization: 'c14n' });
  return result.errors.map((e) => e.message);
}
