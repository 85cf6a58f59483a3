import { readFileSync } from 'node:fs';
import type { NamedSchema } from '../../plugin.js';

/** The XSDs the archive wrote from the format description; served in the format index. */
function load(name: string): NamedSchema {
  return { name, mediaType: 'application/xml', text: readFileSync(new URL(`./schemas/${name}`, import.meta.url), 'utf8') };
}

/** The base schema every file of the XML family must pass before its publisher/version is read. */
export const STANDARD_SCHEMA: NamedSchema = load('Standard.xsd');

export const GOFANS_VERSIONS = ['1.1', '1.2', '2.1', '2.2'] as const;
export type GoFansVersion = (typeof GOFANS_VERSIONS)[number];

export const GOFANS_PUBLISHER = 'GoFans';

export const GOFANS_SCHEMAS: Readonly<Record<GoFansVersion, NamedSchema>> = {
  '1.1': load('GoFans-1.1.xsd'),
  '1.2': load('GoFans-1.2.xsd'),
  '2.1': load('GoFans-2.1.xsd'),
  '2.2': load('GoFans-2.2.xsd'),
};

export function isGoFansVersion(version: string): version is GoFansVersion {
  return (GOFANS_VERSIONS as readonly string[]).includes(version);
}

/** What distinguishes the versions: 1.2/2.2 nest follow-up moves, 2.1/2.2 carry removes. */
export function versionTraits(version: GoFansVersion): { nested: boolean; removes: boolean } {
  return { nested: version.endsWith('.2'), removes: version.startsWith('2.') };
}
