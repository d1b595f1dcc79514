import { useTranslation } from 'react-i18next'
import { BlogPostCard } from '../../features/blog/components/blog-post-card'
import { NewsletterBox } from '../../features/blog/components/newsletter-box'
import { BLOG_POSTS } from '../../features/blog/lib/posts'
import { PageHero } from '../../components/page/page-hero'
import { usePageMeta } from '../../components/page/use-page-meta'

export function BlogRoute() {
  const { t } = useTranslation('blog')
  usePageMeta('blog')
  return (
    <>
      <PageHero title={t('hero.title')} subtitle={t('hero.subtitle')} />
      <div className="mx-auto max-w-4xl space-y-8 px-4 py-12">
        {BLOG_POSTS.map((post) => (
          <BlogPostCard key={post.id} post={post} />
        ))}
        <NewsletterBox />
      </div>
    </>
  )
}
