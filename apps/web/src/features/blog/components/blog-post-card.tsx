import { Card } from '@tempbox/ui'
import { Calendar, Clock, User } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { BlogPost } from '../lib/posts'

export function BlogPostCard({ post }: { post: BlogPost }) {
  const { t, i18n } = useTranslation('blog')
  const paragraphs = t(`posts.${post.id}.body`, { returnObjects: true }) as string[]
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(`${post.date}T12:00:00Z`))
  return (
    <Card className="overflow-hidden" data-testid="blog-post">
      <article aria-labelledby={`post-${post.id}`}>
        <img src={post.image} alt={t(`posts.${post.id}.imageAlt`)} width={800} height={400} loading="lazy" className="aspect-[2/1] w-full object-cover" />
        <div className="space-y-3 p-6">
          <h2 id={`post-${post.id}`} className="text-2xl font-bold">{t(`posts.${post.id}.title`)}</h2>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
            <li className="flex items-center gap-1"><User aria-hidden="true" className="size-4" /><span className="sr-only">{t('author')}: </span>{post.author}</li>
            <li className="flex items-center gap-1"><Calendar aria-hidden="true" className="size-4" /><time dateTime={post.date}>{date}</time></li>
            <li className="flex items-center gap-1"><Clock aria-hidden="true" className="size-4" />{t('readTime', { count: post.readTime })}</li>
          </ul>
          <p className="text-slate-800 dark:text-slate-200">{t(`posts.${post.id}.excerpt`)}</p>
          <details className="group">
            <summary className="cursor-pointer font-medium text-blue-700 dark:text-blue-400">{t('readMore')}</summary>
            <div className="mt-3 space-y-3 text-slate-700 dark:text-slate-300">
              {Array.isArray(paragraphs) && paragraphs.map((p, i) => <p key={i}>{p}</p>)}
            </div>
          </details>
        </div>
      </article>
    </Card>
  )
}
