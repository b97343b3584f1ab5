// Builds the referral widget (apps/gateway/src/embed/widget: plain
// TypeScript and DOM, no framework, for the customers' pages it is embedded
// in) into dist/apps/gateway/embed, which the gateway serves at /embed:
// assets/widget.js and assets/widget.css for its page, loader.js for the
// script tag. Minified for browsers of the last few years.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { root } from './bundle-ts.mjs';

const source = join(root, 'apps', 'gateway', 'src', 'embed', 'widget');
const out = join(root, 'dist', 'apps', 'gateway', 'embed');

export async function buildWidget() {
  await mkdir(join(out, 'assets'), { recursive: true });
  const options = { bundle: true, minify: true, format: 'iife', platform: 'browser', target: ['es2020', 'chrome90', 'firefox90', 'safari14'], logLevel: 'warning', legalComments: 'none' };
  await Promise.all([
    build({ ...options, entryPoints: [join(source, 'widget.ts')], outfile: join(out, 'assets', 'widget.js') }),
    build({ ...options, entryPoints: [join(source, 'loader.ts')], outfile: join(out, 'loader.js') }),
    copyFile(join(source, 'widget.css'), join(out, 'assets', 'widget.css')),
  ]);
}
