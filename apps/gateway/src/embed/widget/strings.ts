/** Every text the widget shows; a page overrides any of them with the `strings` option. */
export interface WidgetStrings {
  title: string;
  intro: string;
  yourLink: string;
  copy: string;
  copied: string;
  share: string;
  shareText: string;
  email: string;
  qrAlt: string;
  clicks: string;
  joined: string;
  converted: string;
  friends: string;
  noFriends: string;
  friendJoined: string;
  friendConverted: string;
  rewards: string;
  noRewards: string;
  code: string;
  copyCode: string;
  codeCopied: string;
  expires: string;
  statusPending: string;
  statusApproved: string;
  statusReady: string;
  statusPaid: string;
  /** A reward a refund, chargeback or cancellation of the sale took back. */
  statusReversed: string;
  /** Before the date a held reward becomes payable. */
  availableOn: string;
  /** Before what a partial reversal took off a reward. */
  reducedBy: string;
  loading: string;
  expired: string;
  error: string;
}

const en: WidgetStrings = {
  title: 'Invite your friends',
  intro: 'Share your link. You earn a reward when a friend you invited signs up.',
  yourLink: 'Your referral link',
  copy: 'Copy link',
  copied: 'Link copied',
  share: 'Share',
  shareText: 'Join me with my link:',
  email: 'Email',
  qrAlt: 'QR code of your referral link',
  clicks: 'Clicks',
  joined: 'Friends joined',
  converted: 'Friends converted',
  friends: 'Your friends',
  noFriends: 'No friend has joined through your link yet.',
  friendJoined: 'Joined',
  friendConverted: 'Converted',
  rewards: 'Your rewards',
  noRewards: 'No reward yet.',
  code: 'Code',
  copyCode: 'Copy code',
  codeCopied: 'Code copied',
  expires: 'Expires',
  statusPending: 'Pending',
  statusApproved: 'Approved',
  statusReady: 'Ready to use',
  statusPaid: 'Paid',
  statusReversed: 'Reversed',
  availableOn: 'Available on',
  reducedBy: 'Reduced by',
  loading: 'Loading…',
  expired: 'This page has expired. Reload it to see your referrals.',
  error: 'Your referrals cannot be shown right now.',
};

const fr: WidgetStrings = {
  title: 'Invitez vos amis',
  intro: 'Partagez votre lien. Vous gagnez une récompense quand un ami invité s’inscrit.',
  yourLink: 'Votre lien de parrainage',
  copy: 'Copier le lien',
  copied: 'Lien copié',
  share: 'Partager',
  shareText: 'Rejoins-moi avec mon lien :',
  email: 'E-mail',
  qrAlt: 'QR code de votre lien de parrainage',
  clicks: 'Clics',
  joined: 'Amis inscrits',
  converted: 'Amis convertis',
  friends: 'Vos amis',
  noFriends: 'Aucun ami ne s’est encore inscrit avec votre lien.',
  friendJoined: 'Inscrit',
  friendConverted: 'Converti',
  rewards: 'Vos récompenses',
  noRewards: 'Pas encore de récompense.',
  code: 'Code',
  copyCode: 'Copier le code',
  codeCopied: 'Code copié',
  expires: 'Expire le',
  statusPending: 'En attente',
  statusApproved: 'Validée',
  statusReady: 'Prête à l’emploi',
  statusPaid: 'Versée',
  statusReversed: 'Annulée',
  availableOn: 'Disponible le',
  reducedBy: 'Réduite de',
  loading: 'Chargement…',
  expired: 'Cette page a expiré. Rechargez-la pour voir vos parrainages.',
  error: 'Vos parrainages ne peuvent pas être affichés pour le moment.',
};

const de: WidgetStrings = {
  title: 'Lade deine Freunde ein',
  intro: 'Teile deinen Link. Du erhältst eine Prämie, wenn sich ein eingeladener Freund anmeldet.',
  yourLink: 'Dein Empfehlungslink',
  copy: 'Link kopieren',
  copied: 'Link kopiert',
  share: 'Teilen',
  shareText: 'Mach mit über meinen Link:',
  email: 'E-Mail',
  qrAlt: 'QR-Code deines Empfehlungslinks',
  clicks: 'Klicks',
  joined: 'Angemeldete Freunde',
  converted: 'Konvertierte Freunde',
  friends: 'Deine Freunde',
  noFriends: 'Über deinen Link hat sich noch niemand angemeldet.',
  friendJoined: 'Angemeldet',
  friendConverted: 'Konvertiert',
  rewards: 'Deine Prämien',
  noRewards: 'Noch keine Prämie.',
  code: 'Code',
  copyCode: 'Code kopieren',
  codeCopied: 'Code kopiert',
  expires: 'Gültig bis',
  statusPending: 'Ausstehend',
  statusApproved: 'Bestätigt',
  statusReady: 'Einlösbar',
  statusPaid: 'Ausgezahlt',
  statusReversed: 'Storniert',
  availableOn: 'Verfügbar ab',
  reducedBy: 'Reduziert um',
  loading: 'Wird geladen…',
  expired: 'Diese Seite ist abgelaufen. Lade sie neu, um deine Empfehlungen zu sehen.',
  error: 'Deine Empfehlungen können gerade nicht angezeigt werden.',
};

const es: WidgetStrings = {
  title: 'Invita a tus amigos',
  intro: 'Comparte tu enlace. Ganas una recompensa cuando un amigo invitado se registra.',
  yourLink: 'Tu enlace de referido',
  copy: 'Copiar enlace',
  copied: 'Enlace copiado',
  share: 'Compartir',
  shareText: 'Únete con mi enlace:',
  email: 'Correo',
  qrAlt: 'Código QR de tu enlace de referido',
  clicks: 'Clics',
  joined: 'Amigos registrados',
  converted: 'Amigos convertidos',
  friends: 'Tus amigos',
  noFriends: 'Ningún amigo se ha registrado con tu enlace todavía.',
  friendJoined: 'Registrado',
  friendConverted: 'Convertido',
  rewards: 'Tus recompensas',
  noRewards: 'Aún no hay recompensas.',
  code: 'Código',
  copyCode: 'Copiar código',
  codeCopied: 'Código copiado',
  expires: 'Caduca',
  statusPending: 'Pendiente',
  statusApproved: 'Aprobada',
  statusReady: 'Lista para usar',
  statusPaid: 'Pagada',
  statusReversed: 'Anulada',
  availableOn: 'Disponible el',
  reducedBy: 'Reducida en',
  loading: 'Cargando…',
  expired: 'Esta página ha caducado. Recárgala para ver tus referidos.',
  error: 'No se pueden mostrar tus referidos ahora.',
};

export const LANGUAGES: Record<string, WidgetStrings> = { en, fr, de, es };

/** The strings of `lang` (English when unknown), with the page's overrides of known keys that are text. */
export function widgetStrings(lang: string, overrides: unknown): WidgetStrings {
  const strings = { ...(LANGUAGES[lang] ?? en) };
  if (overrides && typeof overrides === 'object') {
    for (const [key, value] of Object.entries(overrides)) {
      if (key in strings && typeof value === 'string' && value.length <= 500) strings[key as keyof WidgetStrings] = value;
    }
  }
  return strings;
}
