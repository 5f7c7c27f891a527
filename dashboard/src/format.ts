const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const number = new Intl.NumberFormat();

export const formatTime = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatNumber = (n: number) => number.format(n);

const TYPE_LABELS: Record<string, string> = { image: 'Image', multi_face_image: 'Multi-face image', gif: 'GIF', video: 'Video' };
export const typeLabel = (type: string) => TYPE_LABELS[type] ?? type;
