/** Blob keys: immutable, one folder per file so a purge removes a prefix. */
export const fileFolder = (fileId: string) => `files/${fileId}/`;
export const originalKey = (fileId: string) => `files/${fileId}/original`;
export const sourcePdfKey = (fileId: string) => `files/${fileId}/source.pdf`;

const EXT = { pdf: 'pdf', jpg: 'jpg', embedding_image: 'emb.jpg' } as const;
export const pageKey = (fileId: string, page: number, row: keyof typeof EXT) =>
  `files/${fileId}/pages/${String(page).padStart(5, '0')}.${EXT[row]}`;

/** The three views of one page. */
export const pageKeys = (fileId: string, page: number) => ({
  pdf: pageKey(fileId, page, 'pdf'),
  jpg: pageKey(fileId, page, 'jpg'),
  embedding_image: pageKey(fileId, page, 'embedding_image'),
});
