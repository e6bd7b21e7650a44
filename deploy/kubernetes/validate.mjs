#!/usr/bin/env node
// Renders a kustomization (`kubectl kustomize <dir>`) or reads a manifest file, and validates every
// object against the Kubernetes API schemas (the npm package kubernetes-models). Prints one JSON line
// {objects: [{apiVersion, kind, name}], errors: [{object, message}]} and exits 1 when any is invalid.
//   node deploy/kubernetes/validate.mjs deploy/kubernetes/overlays/example
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const source = process.argv[2];
if (!source) {
  console.error('usage: validate.mjs <kustomization directory | manifest file>');
  process.exit(2);
}
const text = statSync(source).isDirectory()
  ? execFileSync('kubectl', ['kustomize', source], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  : readFileSync(source, 'utf8');

/** The kubernetes-models class of an object: `apps/v1` Deployment → `Deployment` of kubernetes-models/apps/v1. */
async function modelOf(apiVersion, kind) {
  try {
    return (await import(`kubernetes-models/${apiVersion}`))[kind];
  } catch {
    return undefined;
  }
}

const objects = [];
const errors = [];
for (const document of parseAllDocuments(text)) {
  if (document.errors.length > 0) {
    errors.push({ object: null, message: document.errors.map((error) => error.message).join('; ') });
    continue;
  }
  const object = document.toJS();
  if (!object) continue;
  const described = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata?.name };
  objects.push(described);
  const Model = await modelOf(object.apiVersion, object.kind);
  if (!Model) {
    errors.push({ object: described, message: `no schema for ${object.apiVersion} ${object.kind}` });
    continue;
  }
  try {
    new Model(object).validate();
  } catch (error) {
    errors.push({ object: described, message: error.message });
  }
}
console.log(JSON.stringify({ objects, errors }));
process.exit(errors.length > 0 ? 1 : 0);
