import { describe, expect, it } from 'vitest';
import { mutableFieldPaths, splitRevisionWrite } from '../../src/rules/revision-write.ts';

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
