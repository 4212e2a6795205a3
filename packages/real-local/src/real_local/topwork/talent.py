"""TopWork's freelancers: a fixed catalogue (module data, never in the session's state), past hires, and the talent
search. Ids are the names lowercased without spaces (``ashleycampbell``), as REAL's topwork scripts expect."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Freelancer:
    id: str
    name: str
    title: str  # the job line shown under the name (REAL's contacts carry it as ``job``)
    location: str
    rate: int  # USD per hour
    available: bool  # "Available now" (looking for work) or "Not available"
    skills: tuple[str, ...]
    overview: str
    jobs_done: int
    rating: float

    @property
    def first(self) -> str:
        return self.name.split()[0]

    @property
    def availability(self) -> str:
        return "Available now" if self.available else "Not available"


FREELANCERS = (
    Freelancer("danielkim", "Daniel Kim", "Backend Developer", "Seoul, South Korea", 55, True,
               ("Python", "Django", "PostgreSQL", "REST APIs"),
               "Backend developer with 7 years of Python. I build APIs, payment integrations and background jobs.",
               41, 4.9),
    Freelancer("priyapatel", "Priya Patel", "Full-Stack Developer", "Pune, India", 48, True,
               ("React", "Node.js", "TypeScript", "MongoDB"),
               "Full-stack developer: React front ends on Node.js back ends, from prototype to production.", 63, 4.8),
    Freelancer("marcusjohnson", "Marcus Johnson", "Full Stack Engineer", "Atlanta, USA", 70, False,
               ("Ruby on Rails", "React", "PostgreSQL"),
               "Full stack engineer, 10 years shipping SaaS products. Booked until next quarter.", 88, 4.9),
    Freelancer("kevinnguyen", "Kevin Nguyen", "Back-End Engineer", "Austin, USA", 65, False,
               ("Go", "Python", "Kubernetes"),
               "Back-end engineer focused on high-throughput services in Go and Python.", 37, 4.7),
    Freelancer("emilychen", "Emily Chen", "Data Scientist", "Toronto, Canada", 60, True,
               ("Python", "pandas", "scikit-learn", "SQL"),
               "Data scientist: forecasting, experiment analysis and dashboards, all in Python.", 29, 5.0),
    Freelancer("jameswilson", "James Wilson", "Frontend Developer", "London, UK", 45, True,
               ("React", "TypeScript", "CSS"),
               "Frontend developer who turns designs into fast, accessible React apps.", 52, 4.6),
    Freelancer("ashleycampbell", "Ashley Campbell", "UI/UX Designer", "Denver, USA", 50, True,
               ("Figma", "User Research", "Prototyping"),
               "Product designer: research, wireframes and polished Figma prototypes for web and mobile.", 45, 4.9),
    Freelancer("brandonmartinez", "Brandon Martinez", "Mobile App Developer", "Miami, USA", 58, True,
               ("Swift", "Kotlin", "Flutter"),
               "Mobile developer building iOS and Android apps with Swift, Kotlin and Flutter.", 34, 4.8),
    Freelancer("oliviabrown", "Olivia Brown", "Graphic Designer", "Sydney, Australia", 40, True,
               ("Adobe Illustrator", "Branding", "Logo Design"),
               "Brand and logo designer with a clean, modern style.", 120, 4.9),
    Freelancer("sofiagarcia", "Sofia Garcia", "Content Writer", "Madrid, Spain", 35, True,
               ("Copywriting", "SEO", "Blog Writing"),
               "Content writer for tech and wellness brands: blogs, landing pages, newsletters.", 77, 4.7),
    Freelancer("michaelthompson", "Michael Thompson", "DevOps Engineer", "Chicago, USA", 75, False,
               ("AWS", "Terraform", "CI/CD"),
               "DevOps engineer: cloud infrastructure, deployment pipelines and monitoring.", 26, 4.8),
    Freelancer("nataliescott", "Natalie Scott", "Project Manager", "Boston, USA", 62, True,
               ("Agile", "Scrum", "Jira"),
               "Certified Scrum master who keeps remote teams shipping on time.", 58, 4.9),
    Freelancer("alexrodriguez", "Alex Rodriguez", "Project Coordinator", "Phoenix, USA", 38, False,
               ("Scheduling", "Documentation", "Jira"),
               "Organised coordinator who keeps projects, notes and calendars in order.", 12, 4.8),
    Freelancer("laurenadams", "Lauren Adams", "Video Editor", "Vancouver, Canada", 42, True,
               ("Premiere Pro", "After Effects", "Color Grading"),
               "Video editor for product launches, ads and social clips.", 64, 4.7),
)
BY_ID = {f.id: f for f in FREELANCERS}

# contracts the client (Sarah Johnson) has had: "My hires"
HIRES = (
    {"freelancerId": "nataliescott", "title": "Project Manager: Mobile Launch", "period": "Jan 2024 to Apr 2024",
     "status": "Ended"},
    {"freelancerId": "michaelthompson", "title": "DevOps Setup", "period": "May 2024 to present", "status": "Active"},
    {"freelancerId": "alexrodriguez", "title": "Project Coordinator", "period": "Jul 2024 to present",
     "status": "Active"},
)


def search(q: str = "", available_only: bool = False) -> list[Freelancer]:
    """Freelancers whose name, title, skills or overview hold every word of ``q`` (any case); with
    ``available_only``, only those available now (looking for work)."""
    words = q.lower().replace(",", " ").split()
    out = []
    for f in FREELANCERS:
        if available_only and not f.available:
            continue
        hay = " ".join((f.name, f.title, " ".join(f.skills), f.overview)).lower()
        hay += " " + hay.replace("-", "")  # "backend" finds "Back-End", "full-stack" finds "Full Stack"
        if all(w in hay or w.replace("-", " ") in hay for w in words):
            out.append(f)
    return out
