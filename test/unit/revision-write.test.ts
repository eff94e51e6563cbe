import { describe, expect, it } from 'vitest';
import {
  afterRefusedWrite,
  buildOnPushWarning,
  mutableFieldPaths,
  splitRevisionWrite,
} from '../../src/rules/revision-write.ts';

const SECRET = { name: 'OPENAI_API_KEY', value: 'sk-1' };

describe('splitRevisionWrite', () => {
  it('sends the revision alone when no mutable field changes', () => {
    expect(
      splitRevisionWrite({
        source_revision_config: { repo_ref: 'main' },
        secrets: [SECRET],
      }),
    ).toEqual({ revision: { source_revision_config: { repo_ref: 'main' }, secrets: [SECRET] } });
  });

  it('puts build_on_push and custom_url in a PATCH of their own, the revision fields in the POST', () => {
    const body = {
      source_config: {
        build_on_push: false,
        custom_url: 'https://agent.example.com',
        resource_spec: { min_scale: 1 },
        install_command: 'pip install .',
        build_command: 'make',
      },
      source_revision_config: { image_uri: 'registry.example.com/agent:1.2' },
    };
    const split = splitRevisionWrite(body);
    expect(split).toEqual({
      mutablePatch: {
        source_config: { build_on_push: false, custom_url: 'https://agent.example.com' },
      },
      revision: {
        source_config: {
          resource_spec: { min_scale: 1 },
          install_command: 'pip install .',
          build_command: 'make',
        },
        source_revision_config: { image_uri: 'registry.example.com/agent:1.2' },
      },
    });
    expect(split.mutablePatch && mutableFieldPaths(split.mutablePatch)).toEqual([
      'source_config.build_on_push',
      'source_config.custom_url',
    ]);
  });

  it('leaves source_config out of the revision when only mutable fields are in it', () => {
    expect(
      splitRevisionWrite({
        source_config: { build_on_push: true },
        source_revision_config: { repo_ref: 'main' },
      }),
    ).toEqual({
      mutablePatch: { source_config: { build_on_push: true } },
      revision: { source_revision_config: { repo_ref: 'main' } },
    });
  });
});

describe('afterRefusedWrite', () => {
  const post = { by: 'post' as const, answerLost: false, wait: true };
  it.each<[string, Parameters<typeof afterRefusedWrite>[0], ReturnType<typeof afterRefusedWrite>]>([
    ['a 405 to the POST: the route is missing', { ...post, status: 405 }, 'patch-instead'],
    [
      'a 404 to the POST: the deployment is read to tell',
      { ...post, status: 404 },
      'read-deployment',
    ],
    [
      'a 404 to the POST, the deployment found: the route is missing',
      { ...post, status: 404, deploymentFound: true },
      'patch-instead',
    ],
    [
      'a 404 to the POST, the deployment 404 too: it is gone, no PATCH',
      { ...post, status: 404, deploymentFound: false },
      'deployment-gone',
    ],
    ['a 404 to a PATCH: the server’s words', { ...post, by: 'patch', status: 404 }, 'fail'],
    ['a 409: the latest revision is read', { ...post, status: 409 }, 'read-latest'],
    [
      'a 409 with the latest pending: wait for it, then write',
      { ...post, status: 409, latestPending: true },
      'wait-then-write',
    ],
    [
      'a 409 with the latest pending and wait: false: a build is under way',
      { ...post, status: 409, latestPending: true, wait: false },
      'build-under-way',
    ],
    [
      'a 409 with nothing pending: the server’s words',
      { ...post, status: 409, latestPending: false },
      'fail',
    ],
    [
      'a 409 to a PATCH is the same',
      { ...post, by: 'patch', status: 409, latestPending: true },
      'wait-then-write',
    ],
    ['a 500: the revision may exist', { ...post, status: 500, answerLost: true }, 'look-for-it'],
    [
      'a dropped connection: the revision may exist',
      { ...post, status: undefined, answerLost: true },
      'look-for-it',
    ],
    ['a 422: the server’s words', { ...post, status: 422 }, 'fail'],
    ['a 400: the server’s words', { ...post, status: 400 }, 'fail'],
  ])('%s', (_, write, expected) => {
    expect(afterRefusedWrite(write)).toBe(expected);
  });
});

describe('buildOnPushWarning', () => {
  const on = { name: 'agent', source_config: { build_on_push: true } };
  it('warns when the deployment builds pushes and the input did not ask for it', () => {
    expect(buildOnPushWarning(on, undefined, 'main')).toBe(
      "Deployment agent builds every push to main by itself (source_config.build_on_push is true), beside this workflow: a push may be built twice, or a revision this run did not make may supersede its own. Set 'build-on-push: false' to let the workflow decide what is built, or 'build-on-push: true' to keep it (and this warning goes).",
    );
    expect(
      buildOnPushWarning({ source_config: { build_on_push: true } }, false, undefined),
    ).toMatch(/^The deployment builds every push by itself/);
  });

  it.each([
    ['the input asks for it', on, true],
    [
      'build_on_push is false',
      { name: 'agent', source_config: { build_on_push: false } },
      undefined,
    ],
    ['the answer does not show it', { name: 'agent', source_config: {} }, undefined],
    ['no source_config', { name: 'agent', source_config: null }, undefined],
  ] as const)('is silent when %s', (_, deployment, input) => {
    expect(buildOnPushWarning(deployment, input, 'main')).toBeUndefined();
  });
});
