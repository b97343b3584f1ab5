import { Alert, Text } from '@mantine/core';
import type { IssuedInvitation } from '../../api/types';
import { formatDateTime } from '../../ui/format';
import { SecretOnceModal } from '../developers/secret-once-modal';

/** What became of the invitation's e-mail, in a sentence. */
function DeliveryNote({ issued }: { issued: IssuedInvitation }) {
  const to = <strong>{issued.invitation.email}</strong>;
  if (issued.emailDelivery === 'SENT') return <Text size="sm">The link was e-mailed to {to}. You may also pass it on yourself.</Text>;
  if (issued.emailDelivery === 'FAILED') {
    return (
      <Alert color="red" title="The e-mail could not be sent">
        The invitation is made: send {to} this link yourself.
      </Alert>
    );
  }
  return <Text size="sm">No e-mail server is configured: send {to} this link yourself.</Text>;
}

/**
 * A new invitation's link, shown once with a copy button (the server keeps
 * only a hash of it), and whether its e-mail went out.
 */
export function InvitationLinkModal({ issued, onClose }: { issued: IssuedInvitation | null; onClose: () => void }) {
  return (
    <SecretOnceModal title="Invitation link" label="Invitation link" secret={issued?.inviteUrl ?? null} onClose={onClose}>
      {issued && (
        <>
          <DeliveryNote issued={issued} />
          <Text size="sm" c="dimmed">
            Whoever opens it sets a password and joins as {issued.invitation.role.toLowerCase()}. It works once, until {formatDateTime(issued.invitation.expiresAt)}.
          </Text>
        </>
      )}
    </SecretOnceModal>
  );
}
