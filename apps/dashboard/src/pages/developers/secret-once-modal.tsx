import type { ReactNode } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';

/**
 * A secret the server shows only once (an API key, a signing secret, a
 * first password): shown with a copy button until the dialog closes, after
 * which the page forgets it.
 */
export function SecretOnceModal({ title, label, secret, onClose, children }: { title: string; label: string; secret: string | null; onClose: () => void; children?: ReactNode }) {
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} centered size="lg" closeOnClickOutside={false}>
      <Stack>
        <Alert color="yellow" title="Shown only this once">
          Copy it now and keep it somewhere safe: it cannot be shown again.
        </Alert>
        {children}
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Code block aria-label={label} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={secret ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>I have copied it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
