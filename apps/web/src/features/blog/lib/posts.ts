/** The four blog posts (spec §3 "Blog post"); titles and text live in the `blog` table under `posts.<id>`. */
export type BlogPost = { id: string; author: string; date: string; readTime: number; image: string }

export const BLOG_POSTS: BlogPost[] = [
  { id: 'why-disposable-email', author: 'Sarah Chen', date: '2025-01-15', readTime: 5, image: '/blog/why-disposable-email.svg' },
  { id: 'spot-phishing', author: 'Marcus Webb', date: '2025-01-08', readTime: 6, image: '/blog/spot-phishing.svg' },
  { id: 'when-not-to-use', author: 'Aisha Rahman', date: '2024-12-28', readTime: 4, image: '/blog/when-not-to-use.svg' },
  { id: 'inbox-hygiene', author: 'Daniel Okafor', date: '2024-12-18', readTime: 5, image: '/blog/inbox-hygiene.svg' },
]
